"""template.yaml as data: CloudFormation short tags, and the intrinsic functions the local stack resolves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from docsvc.local.template import Resolver, load_template, parameter_defaults

TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage:
    Type: String
    Default: dev
  LogLevel:
    Type: String
    Default: INFO
  Retries:
    Type: Number
    Default: 3
  AlertEmail:
    Type: String
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub "docsvc-${Stage}-${AWS::AccountId}"
  Queue:
    Type: AWS::SQS::Queue
  Function:
    Type: AWS::Serverless::Function
    Properties:
      Environment:
        Variables:
          BUCKET: !Ref Bucket
          QUEUE_ARN: !GetAtt Queue.Arn
          QUEUE_URL: !GetAtt [Queue, QueueUrl]
          STAGE: !Ref Stage
          REGION: !Ref AWS::Region
          LABEL: !Join ["-", [docsvc, !Ref Stage, !Ref AWS::Region]]
          TABLE: !Sub
            - "${Prefix}-files-${Stage}"
            - Prefix: !Ref Bucket
          ENDPOINT: !Sub "https://${Queue.QueueName}.${AWS::Region}.example.com"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "template.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def variables(template: dict[str, Any]) -> dict[str, Any]:
    variables: dict[str, Any] = template["Resources"]["Function"]["Properties"]["Environment"]["Variables"]
    return variables


def resolver(parameters: dict[str, str]) -> Resolver:
    return Resolver(
        pseudo={"AWS::Region": "eu-west-1", "AWS::AccountId": "123456789012"},
        parameters=parameters,
        ref=lambda logical_id: f"physical-{logical_id.lower()}",
        attribute=lambda logical_id, attribute: f"{logical_id}/{attribute}",
    )


# ---------------------------------------------------------------------------- loading


def test_short_tags_load_as_their_long_form_intrinsic_functions(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))

    loaded = variables(template)

    assert loaded["BUCKET"] == {"Ref": "Bucket"}
    assert loaded["REGION"] == {"Ref": "AWS::Region"}
    assert loaded["QUEUE_ARN"] == {"Fn::GetAtt": ["Queue", "Arn"]}
    assert loaded["QUEUE_URL"] == {"Fn::GetAtt": ["Queue", "QueueUrl"]}
    assert loaded["LABEL"] == {"Fn::Join": ["-", ["docsvc", {"Ref": "Stage"}, {"Ref": "AWS::Region"}]]}
    assert loaded["TABLE"] == {"Fn::Sub": ["${Prefix}-files-${Stage}", {"Prefix": {"Ref": "Bucket"}}]}
    assert template["Resources"]["Bucket"]["Properties"]["BucketName"] == {
        "Fn::Sub": "docsvc-${Stage}-${AWS::AccountId}"
    }


def test_getatt_splits_only_at_the_first_dot(tmp_path: Path) -> None:
    path = write(
        tmp_path, "Resources:\n  X:\n    Type: T\n    Properties:\n      A: !GetAtt Db.Endpoint.Address\n"
    )

    template = load_template(path)

    assert template["Resources"]["X"]["Properties"]["A"] == {"Fn::GetAtt": ["Db", "Endpoint.Address"]}


def test_a_yaml_file_without_resources_is_not_a_template(tmp_path: Path) -> None:
    path = write(tmp_path, "Parameters:\n  Stage:\n    Type: String\n")

    with pytest.raises(ValueError, match="not a CloudFormation template"):
        load_template(path)


@pytest.mark.parametrize("text", ["", "- just\n- a list\n", "just a string\n"])
def test_a_yaml_file_that_is_not_a_mapping_is_not_a_template(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)

    with pytest.raises(ValueError, match="not a CloudFormation template"):
        load_template(path)


def test_an_unknown_tag_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "Resources:\n  X:\n    Type: T\n    Properties:\n      A: !Bogus value\n")

    with pytest.raises(yaml.constructor.ConstructorError, match="!Bogus"):
        load_template(path)


def test_python_objects_cannot_be_loaded_from_a_template(tmp_path: Path) -> None:
    path = write(tmp_path, "Resources:\n  X: !!python/object/apply:os.system ['true']\n")

    with pytest.raises(yaml.YAMLError):
        load_template(path)


# ---------------------------------------------------------------------------- parameters


def test_parameter_defaults_are_strings_and_parameters_without_default_are_left_out(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))

    defaults = parameter_defaults(template)

    assert defaults == {"Stage": "dev", "LogLevel": "INFO", "Retries": "3"}


def test_a_template_without_parameters_has_no_defaults() -> None:
    assert parameter_defaults({"Resources": {}}) == {}


# ---------------------------------------------------------------------------- resolving


def test_ref_resolves_pseudo_parameters_parameters_and_resources(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))
    resolve = resolver(parameter_defaults(template))

    resolved = resolve(variables(template))

    assert resolved["REGION"] == "eu-west-1"
    assert resolved["STAGE"] == "dev"
    assert resolved["BUCKET"] == "physical-bucket"


def test_a_given_parameter_value_overrides_the_default(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))
    resolve = resolver({**parameter_defaults(template), "Stage": "prod"})

    resolved = resolve(variables(template))

    assert resolved["STAGE"] == "prod"
    assert resolved["LABEL"] == "docsvc-prod-eu-west-1"


def test_getatt_resolves_through_the_attribute_callback(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))

    resolved = resolver(parameter_defaults(template))(variables(template))

    assert resolved["QUEUE_ARN"] == "Queue/Arn"
    assert resolved["QUEUE_URL"] == "Queue/QueueUrl"


def test_sub_replaces_parameters_pseudo_parameters_and_attributes(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))
    resolve = resolver(parameter_defaults(template))

    bucket_name = resolve(template["Resources"]["Bucket"]["Properties"]["BucketName"])
    endpoint = resolve(variables(template)["ENDPOINT"])

    assert bucket_name == "docsvc-dev-123456789012"
    assert endpoint == "https://Queue/QueueName.eu-west-1.example.com"


def test_sub_list_form_uses_its_own_variables_first(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))

    resolved = resolver(parameter_defaults(template))(variables(template))

    assert resolved["TABLE"] == "physical-bucket-files-dev"


def test_join_joins_resolved_items_with_its_separator(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))

    resolved = resolver(parameter_defaults(template))(variables(template))

    assert resolved["LABEL"] == "docsvc-dev-eu-west-1"


def test_a_whole_template_section_resolves_with_nothing_left_unresolved(tmp_path: Path) -> None:
    template = load_template(write(tmp_path, TEMPLATE))

    resolved = resolver(parameter_defaults(template))(variables(template))

    assert all(isinstance(value, str) and "${" not in value for value in resolved.values())


def test_plain_values_lists_and_mappings_pass_through_resolved_in_place() -> None:
    resolve = resolver({"Stage": "dev"})

    resolved = resolve(
        {"Count": 3, "Flags": [True, {"Ref": "Stage"}], "Nested": {"A": "x", "B": {"Ref": "Stage"}}}
    )

    assert resolved == {"Count": 3, "Flags": [True, "dev"], "Nested": {"A": "x", "B": "dev"}}


def test_pseudo_parameters_win_over_parameters_of_the_same_name() -> None:
    resolve = resolver({"AWS::Region": "wrong"})

    assert resolve({"Ref": "AWS::Region"}) == "eu-west-1"


def test_sub_writes_an_escaped_placeholder_literally() -> None:
    resolve = resolver({})

    resolved = resolve({"Fn::Sub": "echo ${!HOME} in ${AWS::Region}"})

    assert resolved == "echo ${HOME} in eu-west-1"

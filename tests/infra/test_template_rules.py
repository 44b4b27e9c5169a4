"""Rules on template.yaml that need no build: queues, event sources, IAM, build metadata, handlers.

Each rule is parametrized over the resources it concerns, so a failure names the resource. The template is
read with the local stack's own loader (CloudFormation short tags become their long-form intrinsics).

Not checked here: tenant-scoped partition keys. Every table's partition key is the generic `pk`; whether it
is tenant scoped (`ORG#<org>#ENV#<env>`) is decided by the adapters' values, not by the template's names,
and AccountsTable is global on purpose (it maps a key's hash to its tenant).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from docsvc.local.template import load_template

from tests.conftest import ROOT, TEMPLATE

TEMPLATE_DATA: dict[str, Any] = load_template(TEMPLATE)
RESOURCES: dict[str, dict[str, Any]] = TEMPLATE_DATA["Resources"]
GLOBAL_FUNCTION: dict[str, Any] = TEMPLATE_DATA.get("Globals", {}).get("Function", {})
RUNTIME_MK = ROOT / "layers" / "runtime.mk"

LAMBDA_DEFAULT_TIMEOUT = 3  # seconds
SQS_DEFAULT_VISIBILITY_TIMEOUT = 30  # seconds


def of_type(resource_type: str) -> list[str]:
    return sorted(
        logical_id for logical_id, resource in RESOURCES.items() if resource["Type"] == resource_type
    )


def properties(logical_id: str) -> dict[str, Any]:
    props: dict[str, Any] = RESOURCES[logical_id].get("Properties", {})
    return props


def function_setting(logical_id: str, name: str, default: Any = None) -> Any:
    """A function property, falling back to Globals.Function (scalars: the function's value wins)."""
    return properties(logical_id).get(name, GLOBAL_FUNCTION.get(name, default))


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def referenced_resource(value: Any) -> str | None:
    """The logical id in `!Ref X` or `!GetAtt X.Arn`, else None (a literal ARN, a parameter, ...)."""
    if isinstance(value, dict) and len(value) == 1:
        ((name, argument),) = value.items()
        if name == "Ref" and isinstance(argument, str) and argument in RESOURCES:
            return argument
        if name == "Fn::GetAtt":
            logical_id, attribute = argument if isinstance(argument, list) else str(argument).split(".", 1)
            if attribute == "Arn" and logical_id in RESOURCES:
                return str(logical_id)
    return None


FUNCTIONS = of_type("AWS::Serverless::Function")
LAYERS = of_type("AWS::Serverless::LayerVersion")
QUEUES = of_type("AWS::SQS::Queue")


def dead_letter_queues() -> set[str]:
    """Queues that receive what failed: redrive targets of queues, and on-failure destinations of
    event sources (a DynamoDB stream's batches that failed every retry)."""
    targets = set()
    for logical_id in QUEUES:
        policy = properties(logical_id).get("RedrivePolicy") or {}
        target = referenced_resource(policy.get("deadLetterTargetArn"))
        if target is not None:
            targets.add(target)
    for resource in RESOURCES.values():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        for event in resource["Properties"].get("Events", {}).values():
            failure = event.get("Properties", {}).get("DestinationConfig", {}).get("OnFailure", {})
            target = referenced_resource(failure.get("Destination"))
            if target is not None:
                targets.add(target)
    return targets


def sqs_event_sources() -> list[tuple[str, str]]:
    """(function, event name) of every SQS event source."""
    return [
        (function, name)
        for function in FUNCTIONS
        for name, event in sorted(properties(function).get("Events", {}).items())
        if event["Type"] == "SQS"
    ]


def policy_statements(policies: Any) -> list[dict[str, Any]]:
    """The inline statements of a SAM `Policies` value or an IAM policy document (not SAM policy templates
    nor managed policy names)."""
    statements: list[dict[str, Any]] = []
    for policy in as_list(policies):
        if isinstance(policy, dict) and "Statement" in policy:
            statements.extend(as_list(policy["Statement"]))
    return statements


def iam_holders() -> list[str]:
    """Functions (inline Policies) and IAM resources, whose statements grant permissions."""
    iam = [*of_type("AWS::IAM::Role"), *of_type("AWS::IAM::Policy"), *of_type("AWS::IAM::ManagedPolicy")]
    return sorted([*FUNCTIONS, *iam])


def statements_of(logical_id: str) -> list[dict[str, Any]]:
    resource_type = RESOURCES[logical_id]["Type"]
    props = properties(logical_id)
    if resource_type == "AWS::Serverless::Function":
        return policy_statements(props.get("Policies", []))
    if resource_type == "AWS::IAM::Role":
        documents = [policy.get("PolicyDocument", {}) for policy in props.get("Policies", [])]
        return policy_statements(documents)
    return policy_statements(props.get("PolicyDocument", {}))


def code_dir(logical_id: str) -> Path:
    props = properties(logical_id)
    uri = props.get("ContentUri") if RESOURCES[logical_id]["Type"].endswith("LayerVersion") else None
    uri = uri or props.get("CodeUri") or GLOBAL_FUNCTION.get("CodeUri")
    assert isinstance(uri, str), f"{logical_id}: CodeUri/ContentUri must be a local folder, not {uri!r}"
    return ROOT / uri


# ---------------------------------------------------------------------------- queues


@pytest.mark.parametrize("queue", sorted(set(QUEUES) - dead_letter_queues()))
def test_every_queue_that_is_not_a_dead_letter_queue_redrives_to_one(queue: str) -> None:
    policy = properties(queue).get("RedrivePolicy")

    assert isinstance(policy, dict), f"{queue} has no RedrivePolicy: failed messages would be retried forever"
    target = referenced_resource(policy.get("deadLetterTargetArn"))
    assert target is not None, f"{queue}: deadLetterTargetArn must be !GetAtt <queue of this template>.Arn"
    assert RESOURCES[target]["Type"] == "AWS::SQS::Queue", f"{queue}: dead-letter target {target} is no queue"
    assert target != queue
    count = policy.get("maxReceiveCount")
    assert isinstance(count, int) and count >= 1, f"{queue}: RedrivePolicy needs a maxReceiveCount >= 1"


@pytest.mark.parametrize(("function", "event"), sqs_event_sources())
def test_queue_visibility_timeout_is_at_least_six_times_the_consumer_timeout(
    function: str, event: str
) -> None:
    source = properties(function)["Events"][event]["Properties"]
    queue = referenced_resource(source.get("Queue"))
    assert queue is not None and RESOURCES[queue]["Type"] == "AWS::SQS::Queue", (
        f"{function}.{event}: Queue must be !GetAtt <queue of this template>.Arn, so the rules can check it"
    )
    timeout = int(function_setting(function, "Timeout", LAMBDA_DEFAULT_TIMEOUT))

    visibility = int(properties(queue).get("VisibilityTimeout", SQS_DEFAULT_VISIBILITY_TIMEOUT))

    assert visibility >= 6 * timeout, (
        f"{queue}.VisibilityTimeout {visibility} s < 6 x {function}'s Timeout {timeout} s = {6 * timeout} s: "
        "messages still being processed would be delivered again"
    )


@pytest.mark.parametrize(("function", "event"), sqs_event_sources())
def test_sqs_event_sources_report_batch_item_failures(function: str, event: str) -> None:
    source = properties(function)["Events"][event]["Properties"]

    assert "ReportBatchItemFailures" in source.get("FunctionResponseTypes", []), (
        f"{function}.{event}: without FunctionResponseTypes [ReportBatchItemFailures] one failed message "
        "makes the whole batch return to the queue"
    )


# ---------------------------------------------------------------------------- IAM


@pytest.mark.parametrize("holder", iam_holders())
def test_no_policy_statement_grants_a_bare_wildcard(holder: str) -> None:
    wildcards = [
        f"{key}: {statement.get(key)!r}"
        for statement in statements_of(holder)
        for key in ("Action", "Resource")
        if "*" in as_list(statement.get(key, []))
    ]

    assert wildcards == [], f"{holder} grants a bare '*': {'; '.join(wildcards)}"


S3_OBJECTS_UNDER_A_PREFIX = re.compile(r"^arn:\$\{AWS::Partition\}:s3:::\$\{FilesBucket\}/[a-z]+/\*$")
STACK_SECRETS = (
    "arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}:secret:${AWS::StackName}/"
)
POLICY_TEMPLATE_TARGETS = {  # SAM policy template -> (its argument, the resource type it must name)
    "DynamoDBReadPolicy": ("TableName", "AWS::DynamoDB::Table"),
    "DynamoDBCrudPolicy": ("TableName", "AWS::DynamoDB::Table"),
    "DynamoDBStreamReadPolicy": ("TableName", "AWS::DynamoDB::Table"),
    "SQSSendMessagePolicy": ("QueueName", "AWS::SQS::Queue"),
    "SQSPollerPolicy": ("QueueName", "AWS::SQS::Queue"),
    "LambdaInvokePolicy": ("FunctionName", "AWS::Serverless::Function"),
}


def substituted(value: Any) -> str:
    """The template of a `!Sub "..."` resource, or the literal string."""
    if isinstance(value, dict) and "Fn::Sub" in value:
        sub = value["Fn::Sub"]
        return str(sub[0] if isinstance(sub, list) else sub)
    return str(value)


@pytest.mark.parametrize("function", FUNCTIONS)
def test_objects_and_secrets_are_granted_under_a_prefix_never_whole(function: str) -> None:
    """S3: objects of one top-level prefix of the files bucket (files/, parses/, ...), never the bucket;
    Secrets Manager: only this stack's secrets (<stack>/<org>/<env>/<name>)."""
    too_wide = []
    for statement in statements_of(function):
        actions = as_list(statement.get("Action", []))
        objects = any(action.startswith("s3:") for action in actions)
        secrets = any(action.startswith("secretsmanager:") for action in actions)
        for resource in map(substituted, as_list(statement.get("Resource", []))):
            if objects and not S3_OBJECTS_UNDER_A_PREFIX.match(resource):
                too_wide.append(resource)
            if secrets and not resource.startswith(STACK_SECRETS):
                too_wide.append(resource)

    assert too_wide == [], f"{function} is granted more than a prefix: {too_wide}"


@pytest.mark.parametrize("function", FUNCTIONS)
def test_policy_templates_name_a_resource_of_this_stack(function: str) -> None:
    """A table, queue or function policy names one resource of the template, never a name pattern or
    a parameter."""
    wrong = []
    for policy in as_list(properties(function).get("Policies", [])):
        if not isinstance(policy, dict) or "Statement" in policy:
            continue
        ((name, argument),) = policy.items()
        assert name in POLICY_TEMPLATE_TARGETS, f"{function}: the rules do not know policy template {name}"
        key, resource_type = POLICY_TEMPLATE_TARGETS[name]
        target = argument.get(key)
        named = referenced_resource(target)
        if named is None and isinstance(target, dict) and "Fn::GetAtt" in target:
            logical_id, _, attribute = str(".".join(as_list(target["Fn::GetAtt"]))).partition(".")
            named = logical_id if attribute == "QueueName" and logical_id in RESOURCES else None
        if named is None or RESOURCES[named]["Type"] != resource_type:
            wrong.append(f"{name} {key}={target!r}")

    assert wrong == [], f"{function}: {wrong}"


# ---------------------------------------------------------------------------- build


@pytest.mark.parametrize("logical_id", [*FUNCTIONS, *LAYERS])
def test_every_function_and_layer_is_built_by_its_makefile(logical_id: str, tmp_path: Path) -> None:
    metadata = RESOURCES[logical_id].get("Metadata", {})
    assert metadata.get("BuildMethod") == "makefile", f"{logical_id}: Metadata.BuildMethod must be makefile"
    makefile = code_dir(logical_id) / "Makefile"
    assert makefile.is_file(), f"{logical_id}: no {makefile.relative_to(ROOT)}"
    target = f"build-{logical_id}"
    assert re.search(rf"^{re.escape(target)}\s*:", makefile.read_text(encoding="utf-8"), re.MULTILINE), (
        f"{makefile.relative_to(ROOT)} has no target {target}"
    )

    # As sam runs it: the Makefile by its absolute path, from another (scratch) directory.
    dry_run = subprocess.run(
        ["make", "--dry-run", "--makefile", str(makefile), target, f"ARTIFACTS_DIR={tmp_path / 'artifacts'}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert dry_run.returncode == 0, dry_run.stderr
    assert not (tmp_path / "artifacts").exists()


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_handler_is_a_module_of_the_function_package(function: str) -> None:
    handler = function_setting(function, "Handler")
    assert isinstance(handler, str) and handler.count(".") >= 1, f"{function}: Handler {handler!r}"
    module = handler.rpartition(".")[0]
    folder = code_dir(function)

    path = folder / module.replace(".", "/")

    assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), (
        f"{function}: Handler {handler} names {module}, which is not under {folder.relative_to(ROOT)}"
    )
    # functions/function.mk ships only the package named like the function's folder.
    assert module.split(".")[0] == folder.name, (
        f"{function}: the handler must live in the package {folder.name}/ (the only one the build ships)"
    )


def runtime_target() -> tuple[str, str]:
    """The Python version and machine the layers' wheels and everyone's bytecode are built for."""
    text = RUNTIME_MK.read_text(encoding="utf-8")
    version = re.search(r"^RUNTIME_VERSION := (\d+\.\d+)$", text, re.MULTILINE)
    machine = re.search(r"^RUNTIME_MACHINE := (aarch64|x86_64)$", text, re.MULTILINE)
    assert version is not None and machine is not None, f"{RUNTIME_MK}: cannot tell its target"
    return version.group(1), machine.group(1)


@pytest.mark.parametrize("logical_id", [*FUNCTIONS, *LAYERS])
def test_runtime_and_architecture_are_those_the_layers_are_built_for(logical_id: str) -> None:
    version, machine = runtime_target()
    runtime, architecture = f"python{version}", {"aarch64": "arm64", "x86_64": "x86_64"}[machine]
    if logical_id in LAYERS:
        props = properties(logical_id)
        runtimes = props.get("CompatibleRuntimes")
        architectures = props.get("CompatibleArchitectures")
        build_architecture = RESOURCES[logical_id].get("Metadata", {}).get("BuildArchitecture")
        assert (runtimes, architectures, build_architecture) == ([runtime], [architecture], architecture), (
            f"{logical_id}: CompatibleRuntimes {runtimes}, CompatibleArchitectures {architectures}, "
            f"BuildArchitecture {build_architecture}, "
            f"but {RUNTIME_MK.name} builds for {runtime} on {architecture}"
        )
    else:
        # Architectures in Globals is replaced, not merged, by a function's own.
        found = (function_setting(logical_id, "Runtime"), function_setting(logical_id, "Architectures"))
        assert found == (runtime, [architecture]), (
            f"{logical_id}: Runtime and Architectures {found}, but the layers are built for {runtime} on "
            f"{architecture} ({RUNTIME_MK.relative_to(ROOT)})"
        )


def test_the_parse_service_knows_how_long_a_parse_worker_may_run() -> None:
    """A background parse still in progress after this long is treated as interrupted."""
    from docsvc.domain.parses import WORKER_SECONDS

    assert function_setting("ParseWorkerFunction", "Timeout") == WORKER_SECONDS


def test_the_document_reader_answers_within_the_time_of_the_api_functions_that_wait_for_it() -> None:
    """Its own budget (a synchronous read's 25 s), then its timeout, then the waiting function's."""
    from docsvc.adapters.aws import INVOKE_SECONDS
    from docsvc.adapters.document_reader import READER_SECONDS
    from docsvc.domain.parses import SYNC_SECONDS

    reader = function_setting("DocumentReaderFunction", "Timeout")
    assert reader == READER_SECONDS
    assert SYNC_SECONDS < reader < INVOKE_SECONDS
    for waiting in ("ParsesApiFunction", "IntelligenceApiFunction", "EditsApiFunction", "EvalsApiFunction"):
        assert reader < function_setting(waiting, "Timeout"), waiting


def test_the_job_service_knows_how_long_a_job_worker_may_run_and_how_often_the_sweeper_runs() -> None:
    """A job in progress after the worker's timeout is interrupted; each sweep looks at one interval."""
    from docsvc.domain.jobs import SWEEP_EVERY_SECONDS, WORKER_SECONDS

    assert function_setting("JobWorkerFunction", "Timeout") == WORKER_SECONDS
    schedule = TEMPLATE_DATA["Resources"]["JobSweeperFunction"]["Properties"]["Events"]["Sweep"]["Properties"]
    assert schedule["Schedule"] == f"rate({SWEEP_EVERY_SECONDS // 60} minutes)"


# ---------------------------------------------------------------------------- operations


def event_triggered_functions() -> list[str]:
    """Functions run by a queue, a stream or a schedule, not by API requests."""
    return [
        function
        for function in FUNCTIONS
        if any(
            event.get("Type") in {"SQS", "DynamoDB", "Schedule", "ScheduleV2"}
            for event in properties(function).get("Events", {}).values()
        )
    ]


@pytest.mark.parametrize("function", event_triggered_functions())
def test_every_worker_has_reserved_concurrency(function: str) -> None:
    reserved = properties(function).get("ReservedConcurrentExecutions")

    assert isinstance(reserved, int) and reserved >= 1, (
        f"{function} has no ReservedConcurrentExecutions: a burst of work could take the account's "
        "whole concurrency from the API"
    )


def alarms_watching(queue: str) -> list[str]:
    return [
        alarm
        for alarm in of_type("AWS::CloudWatch::Alarm")
        if any(
            dimension.get("Value") == {"Fn::GetAtt": [queue, "QueueName"]}
            for dimension in properties(alarm).get("Dimensions", [])
        )
    ]


@pytest.mark.parametrize("queue", sorted(dead_letter_queues()))
def test_every_dead_letter_queue_has_an_alarm_that_notifies(queue: str) -> None:
    alarms = alarms_watching(queue)

    assert alarms, f"no alarm watches {queue}: failed work would pile up unseen"
    for alarm in alarms:
        actions = as_list(properties(alarm).get("AlarmActions") or [])
        assert actions, f"{alarm} notifies nobody: give it AlarmActions (the AlarmTopic)"


def test_the_api_is_throttled() -> None:
    (api,) = of_type("AWS::Serverless::HttpApi")
    settings = properties(api).get("DefaultRouteSettings", {})

    assert settings.get("ThrottlingRateLimit", 0) > 0 and settings.get("ThrottlingBurstLimit", 0) > 0


def test_browsers_may_send_the_headers_the_api_reads_and_read_those_it_answers_with() -> None:
    (api,) = of_type("AWS::Serverless::HttpApi")
    cors = properties(api).get("CorsConfiguration", {})

    sent = {header.lower() for header in cors.get("AllowHeaders", [])}
    exposed = {header.lower() for header in cors.get("ExposeHeaders", [])}
    assert {"authorization", "api-key", "content-type", "idempotency-key"} <= sent
    assert {"x-request-id", "idempotent-replayed", "retry-after"} <= exposed


# ---------------------------------------------------------------------------- production operations


def api_functions() -> list[str]:
    """Functions behind the HTTP API."""
    return [
        function
        for function in FUNCTIONS
        if any(event.get("Type") == "HttpApi" for event in properties(function).get("Events", {}).values())
    ]


def resolved_parameter(value: Any) -> Any:
    """A `!Ref Parameter` as the parameter's default, anything else as it is."""
    if isinstance(value, dict) and set(value) == {"Ref"}:
        parameter = TEMPLATE_DATA.get("Parameters", {}).get(value["Ref"])
        if parameter is not None:
            return parameter.get("Default")
    return value


def retention_days(log_group: Any) -> int:
    """The RetentionInDays of the log group a value refers to (0: it keeps its logs for ever)."""
    logical_id = referenced_resource(log_group)
    if logical_id is None or RESOURCES[logical_id]["Type"] != "AWS::Logs::LogGroup":
        return 0
    days = resolved_parameter(properties(logical_id).get("RetentionInDays"))
    return int(days) if days else 0


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_function_logs_into_a_log_group_that_expires_its_logs(function: str) -> None:
    log_group = (properties(function).get("LoggingConfig") or {}).get("LogGroup")

    assert retention_days(log_group) > 0, (
        f"{function} has no LoggingConfig.LogGroup that is an AWS::Logs::LogGroup of this template with "
        "RetentionInDays: Lambda's own /aws/lambda/<name> group keeps every line for ever"
    )


DATA_TYPES = (
    "AWS::DynamoDB::Table",
    "AWS::S3::Bucket",
    "AWS::SecretsManager::Secret",
    "AWS::Cognito::UserPool",  # the members' accounts and passwords
)


@pytest.mark.parametrize("logical_id", sorted(name for kind in DATA_TYPES for name in of_type(kind)))
def test_every_store_of_customer_data_outlives_its_stack(logical_id: str) -> None:
    resource = RESOURCES[logical_id]

    assert (resource.get("DeletionPolicy"), resource.get("UpdateReplacePolicy")) == ("Retain", "Retain"), (
        f"{logical_id} needs DeletionPolicy: Retain and UpdateReplacePolicy: Retain: `sam delete` or a "
        "change that replaces it would destroy the data it holds"
    )


def alarms_on(namespace: str, metric: str, dimension: str, value: Any) -> list[str]:
    return [
        alarm
        for alarm in of_type("AWS::CloudWatch::Alarm")
        if properties(alarm).get("Namespace") == namespace
        and properties(alarm).get("MetricName") == metric
        and {"Name": dimension, "Value": value} in properties(alarm).get("Dimensions", [])
        and as_list(properties(alarm).get("AlarmActions") or [])
    ]


@pytest.mark.parametrize("metric", ["Errors", "Throttles"])
@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_function_has_an_alarm_on_its_errors_and_throttles(function: str, metric: str) -> None:
    assert alarms_on("AWS/Lambda", metric, "FunctionName", {"Ref": function}), (
        f"no alarm with AlarmActions watches the {metric} of {function}"
    )


@pytest.mark.parametrize(("metric", "statistic"), [("5xx", "Statistic"), ("Latency", "ExtendedStatistic")])
def test_the_api_has_alarms_on_its_server_errors_and_its_p99_latency(metric: str, statistic: str) -> None:
    (api,) = of_type("AWS::Serverless::HttpApi")
    alarms = alarms_on("AWS/ApiGateway", metric, "ApiId", {"Ref": api})

    assert alarms, f"no alarm with AlarmActions watches the API's {metric}"
    if metric == "Latency":
        assert any(properties(alarm).get(statistic) == "p99" for alarm in alarms), "latency: alarm on p99"


@pytest.mark.parametrize("function", api_functions())
def test_api_functions_are_deployed_gradually_behind_an_alias(function: str) -> None:
    """The API calls the alias (SAM points the HttpApi integration at it when AutoPublishAlias is set),
    and CodeDeploy moves the alias to a new version as DeploymentPreference says."""
    props = properties(function)

    assert props.get("AutoPublishAlias"), f"{function} has no AutoPublishAlias"
    preference = props.get("DeploymentPreference") or {}
    assert preference.get("Type"), f"{function} has no DeploymentPreference.Type"
    assert preference.get("Alarms"), f"{function}: DeploymentPreference rolls back on no alarm"


ACCESS_LOG_FIELDS = ("requestId", "status", "routeKey", "responseLatency", "integrationErrorMessage")


def test_the_api_writes_json_access_logs_into_a_log_group_that_expires_them() -> None:
    (api,) = of_type("AWS::Serverless::HttpApi")
    settings = properties(api).get("AccessLogSettings") or {}

    assert retention_days(settings.get("DestinationArn")) > 0, (
        "the API needs AccessLogSettings.DestinationArn: !GetAtt <a log group with RetentionInDays>.Arn"
    )
    record = json.loads(str(settings.get("Format", "")).replace("$context.", "context."))
    assert set(ACCESS_LOG_FIELDS) <= set(record), (
        f"the access log format lacks {sorted(set(ACCESS_LOG_FIELDS) - set(record))}"
    )


COST_TAG = "CostCenter"


def tags_of(logical_id: str) -> dict[str, Any]:
    tags = properties(logical_id).get("Tags", properties(logical_id).get("UserPoolTags", {}))
    if isinstance(tags, list):
        return {tag["Key"]: tag["Value"] for tag in tags}
    return dict(tags)


TAGGABLE = (
    "AWS::DynamoDB::Table",
    "AWS::S3::Bucket",
    "AWS::SQS::Queue",
    "AWS::SNS::Topic",
    "AWS::Logs::LogGroup",
    "AWS::CloudWatch::Alarm",
    "AWS::Serverless::HttpApi",
    "AWS::Cognito::UserPool",  # as UserPoolTags
)


@pytest.mark.parametrize("logical_id", sorted(name for kind in TAGGABLE for name in of_type(kind)))
def test_every_taggable_resource_carries_the_cost_allocation_tag(logical_id: str) -> None:
    assert tags_of(logical_id).get(COST_TAG) == {"Ref": "CostAllocationTag"}, (
        f"{logical_id}: Tags need {COST_TAG}: !Ref CostAllocationTag"
    )


def test_every_function_carries_the_cost_allocation_tag() -> None:
    """Through Globals (a function's own Tags are merged with them)."""
    assert GLOBAL_FUNCTION.get("Tags", {}).get(COST_TAG) == {"Ref": "CostAllocationTag"}


# The retention parameters: the table whose items carry the TTL, and the lifecycle rule (with the tag the
# adapter puts on the record's S3 objects) that expires them after the same number of days.
RETAINED = {
    "EventRetentionDays": ("EventsTable", None),
    "ResultRetentionDays": ("ResultsTable", ("results-past-their-retention", "results/", "result")),
    "RunRetentionDays": ("WorkflowsTable", ("workflow-runs-past-their-retention", "workflows/", "run")),
}


@pytest.mark.parametrize("parameter", sorted(RETAINED))
def test_each_retention_parameter_reaches_the_functions_the_ttl_and_the_lifecycle_rule(
    parameter: str,
) -> None:
    from docsvc.config import RETENTION_DAYS

    table, rule = RETAINED[parameter]
    setting = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", parameter).upper()
    declared = TEMPLATE_DATA["Parameters"][parameter]

    assert (declared["Type"], declared["Default"], declared["MinValue"]) == ("Number", 0, 0)
    assert setting in RETENTION_DAYS
    assert GLOBAL_FUNCTION["Environment"]["Variables"][setting] == {"Ref": parameter}
    assert properties(table)["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}
    if rule is None:
        return
    rule_id, prefix, tag = rule
    rules = properties("FilesBucket")["LifecycleConfiguration"]["Rules"]
    (found,) = [entry for entry in rules if entry["Id"] == rule_id]
    ((condition, _),) = found["Status"].items()
    keep = found["Status"]["Fn::If"][0]
    assert condition == "Fn::If" and found["Status"]["Fn::If"][1:] == ["Disabled", "Enabled"]
    assert TEMPLATE_DATA["Conditions"][keep] == {"Fn::Equals": [{"Ref": parameter}, 0]}
    assert found["ExpirationInDays"] == {"Fn::If": [keep, 1, {"Ref": parameter}]}
    assert (found["Prefix"], found["TagFilters"]) == (prefix, [{"Key": "retention", "Value": tag}])


def test_the_jobs_table_deletes_job_records_by_the_ttl_the_adapter_writes() -> None:
    assert properties("JobsTable")["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}

"""template.yaml as data: a YAML loader for CloudFormation tags and a resolver for intrinsic functions."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_SHORT_TAGS = {
    "!Ref": "Ref",
    "!GetAtt": "Fn::GetAtt",
    "!Sub": "Fn::Sub",
    "!Join": "Fn::Join",
    "!If": "Fn::If",
    "!Equals": "Fn::Equals",
    "!Not": "Fn::Not",
    "!Select": "Fn::Select",
    "!Split": "Fn::Split",
    "!FindInMap": "Fn::FindInMap",
    "!ImportValue": "Fn::ImportValue",
    "!GetAZs": "Fn::GetAZs",
    "!Condition": "Condition",
}


# libyaml's parser where PyYAML has it (about five times faster on template.yaml, which every test that
# deploys the template reads), else the pure-Python one; the constructors are the same safe ones.
_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _TemplateLoader(_SafeLoader):  # type: ignore[misc]
    pass


def _construct(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    name = _SHORT_TAGS.get("!" + suffix)
    if name is None:
        raise yaml.constructor.ConstructorError(None, None, f"unknown tag !{suffix}", node.start_mark)
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        if name == "Fn::GetAtt":
            value = str(value).split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    return {name: value}


_TemplateLoader.add_multi_constructor("!", _construct)


def load_template(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        document = yaml.load(handle, Loader=_TemplateLoader)  # noqa: S506 - a SafeLoader subclass
    if not isinstance(document, dict) or "Resources" not in document:
        raise ValueError(f"{path} is not a CloudFormation template")
    return document


_SUB = re.compile(r"\$\{([^}!]+)\}")


@dataclass
class Resolver:
    """Evaluates Ref, Fn::GetAtt, Fn::Sub and Fn::Join against known values."""

    pseudo: Mapping[str, str]
    parameters: Mapping[str, str]
    ref: Callable[[str], str]
    attribute: Callable[[str, str], str]

    def __call__(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self(item) for item in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((name, argument),) = value.items()
            if name == "Ref":
                return self._ref(str(argument))
            if name == "Fn::GetAtt":
                logical_id, attribute = (
                    argument if isinstance(argument, list) else str(argument).split(".", 1)
                )
                return self.attribute(logical_id, attribute)
            if name == "Fn::Sub":
                return self._sub(argument)
            if name == "Fn::Join":
                separator, items = argument
                return str(separator).join(str(self(item)) for item in items)
        return {key: self(item) for key, item in value.items()}

    def _ref(self, name: str) -> str:
        if name in self.pseudo:
            return self.pseudo[name]
        if name in self.parameters:
            return self.parameters[name]
        return self.ref(name)

    def _sub(self, argument: Any) -> str:
        text, variables = (argument, {}) if isinstance(argument, str) else (argument[0], argument[1])

        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in variables:
                return str(self(variables[name]))
            if "." in name and not name.startswith("AWS::"):
                logical_id, attribute = name.split(".", 1)
                return self.attribute(logical_id, attribute)
            return self._ref(name)

        return _SUB.sub(replace, str(text)).replace("${!", "${")


def parameter_defaults(template: Mapping[str, Any]) -> dict[str, str]:
    return {
        name: str(spec["Default"])
        for name, spec in template.get("Parameters", {}).items()
        if "Default" in spec
    }

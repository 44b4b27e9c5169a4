"""Which deployment `docsvc admin` works on: a stack named by flags, the running local stack, or the
stack of samconfig.toml. It sets the same variables the functions get from template.yaml."""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import boto3

from docsvc import services
from docsvc.local import state_path

_REQUIRED_OUTPUTS = ("AccountsTable",)


class DeploymentNotFound(Exception):
    pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def local_state(start: Path | None = None) -> dict[str, object] | None:
    """The state file of a running local stack in this checkout, if one runs."""
    here = start or Path.cwd()
    for folder in [here, *here.parents]:
        path = state_path(folder)
        if path.is_file():
            state: dict[str, object] = json.loads(path.read_text())
            return state if _alive(int(str(state.get("pid", 0)))) else None
    return None


def samconfig_stack(config_env: str, start: Path | None = None) -> tuple[str, str | None] | None:
    here = start or Path.cwd()
    for folder in [here, *here.parents]:
        path = folder / "samconfig.toml"
        if path.is_file():
            config = tomllib.loads(path.read_text())
            parameters = config.get(config_env, {}).get("deploy", {}).get("parameters", {})
            if "stack_name" in parameters:
                return str(parameters["stack_name"]), parameters.get("region")
    return None


def setting_name(output_key: str) -> str:
    """The variable an output of template.yaml sets: ParseQueueUrl -> PARSE_QUEUE_URL."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", output_key).upper()


def use_deployment(stack: str | None, region: str | None, config_env: str = "default") -> str:
    """Point this process at a deployment; returns a description of it."""
    if stack is None:
        state = local_state()
        if state is not None:
            environment = state["environment"]
            assert isinstance(environment, dict)
            os.environ.update({str(key): str(value) for key, value in environment.items()})
            services.reset()
            return f"local stack at {state['url']}"
        found = samconfig_stack(config_env)
        if found is None:
            raise DeploymentNotFound(
                "no deployment found: start the local stack with `make dev`, "
                "or pass --stack NAME [--region R]"
            )
        stack, region = found[0], region or found[1]
    client = boto3.client("cloudformation", region_name=region) if region else boto3.client("cloudformation")
    try:
        outputs = client.describe_stacks(StackName=stack)["Stacks"][0].get("Outputs", [])
    except client.exceptions.ClientError as error:
        raise DeploymentNotFound(f"stack {stack}: {error.response['Error']['Message']}") from None
    values = {output["OutputKey"]: output["OutputValue"] for output in outputs}
    missing = [name for name in _REQUIRED_OUTPUTS if name not in values]
    if missing:
        raise DeploymentNotFound(f"stack {stack} has no outputs {', '.join(missing)}: is it a docsvc stack?")
    # Each output is a setting the functions get from the template: AccountsTable is ACCOUNTS_TABLE.
    os.environ.update({setting_name(name): value for name, value in values.items()})
    if region:
        os.environ["AWS_DEFAULT_REGION"] = region
    services.reset()
    return f"stack {stack}"

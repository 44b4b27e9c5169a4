"""Creates the tables, queues, bucket and user pool of template.yaml in the emulator (or any AWS endpoint).

The template is the only list of resources: a table, index, stream, queue, redrive policy or bucket
notification added there exists locally on the next start.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import boto3

from docsvc.local.template import Resolver, parameter_defaults

LOCAL_STACK_NAME = "docsvc-local"

# The user pool's settings that sign-in depends on; its mail templates and tags are AWS's business.
_USER_POOL_SETTINGS = (
    "Policies",
    "UsernameAttributes",
    "UsernameConfiguration",
    "AutoVerifiedAttributes",
    "AdminCreateUserConfig",
    "UserAttributeUpdateSettings",
)
_CLIENT_SETTINGS = (
    "GenerateSecret",
    "ExplicitAuthFlows",
    "PreventUserExistenceErrors",
    "EnableTokenRevocation",
    "AccessTokenValidity",
    "IdTokenValidity",
    "RefreshTokenValidity",
    "TokenValidityUnits",
    "ReadAttributes",
    "WriteAttributes",
)


@dataclass
class Provisioned:
    """What each created resource answers to Ref and Fn::GetAtt."""

    refs: dict[str, str] = field(default_factory=dict)
    attributes: dict[tuple[str, str], str] = field(default_factory=dict)


class Provisioner:
    def __init__(
        self,
        template: dict[str, Any],
        *,
        region: str,
        account_id: str,
        parameters: dict[str, str] | None = None,
        stack_name: str = LOCAL_STACK_NAME,
    ) -> None:
        self.template = template
        self.resources: dict[str, Any] = template["Resources"]
        self.region = region
        self.account_id = account_id
        self.created = Provisioned()
        self._creating: set[str] = set()
        self._clients: dict[str, Any] = {}
        self.resolve = Resolver(
            pseudo={
                "AWS::StackName": stack_name,
                "AWS::AccountId": account_id,
                "AWS::Region": region,
                "AWS::Partition": "aws",
                "AWS::URLSuffix": "amazonaws.com",
            },
            parameters=parameter_defaults(template) | (parameters or {}),
            ref=self._ref,
            attribute=self._attribute,
        )

    def _client(self, service: str) -> Any:
        """One client per service for the whole template (making one costs more than most calls)."""
        if service not in self._clients:
            self._clients[service] = boto3.client(service, region_name=self.region)  # type: ignore[call-overload]
        return self._clients[service]

    # ------------------------------------------------------------------ public
    def provision(self) -> Provisioned:
        for logical_id in self.resources:
            self._ensure(logical_id)
        return self.created

    # ------------------------------------------------------------------ resolution
    def _ref(self, logical_id: str) -> str:
        self._ensure(logical_id)
        if logical_id not in self.created.refs:
            raise KeyError(f"Ref {logical_id}: the local stack cannot create {self._type(logical_id)}")
        return self.created.refs[logical_id]

    def _attribute(self, logical_id: str, attribute: str) -> str:
        self._ensure(logical_id)
        try:
            return self.created.attributes[(logical_id, attribute)]
        except KeyError:
            raise KeyError(f"Fn::GetAtt {logical_id}.{attribute} is not known locally") from None

    def _type(self, logical_id: str) -> str:
        if logical_id not in self.resources:
            raise KeyError(f"no resource {logical_id} in the template")
        return str(self.resources[logical_id]["Type"])

    def _ensure(self, logical_id: str) -> None:
        if logical_id in self.created.refs or logical_id in self._creating:
            return
        self._creating.add(logical_id)
        create = {
            "AWS::DynamoDB::Table": self._table,
            "AWS::SQS::Queue": self._queue,
            "AWS::S3::Bucket": self._bucket,
            "AWS::Cognito::UserPool": self._user_pool,
            "AWS::Cognito::UserPoolClient": self._user_pool_client,
            "AWS::Serverless::HttpApi": self._served_by_gateway,
            "AWS::Serverless::Function": self._run_in_process,
        }.get(self._type(logical_id))
        if create is not None:
            create(logical_id, self.resources[logical_id].get("Properties", {}))
        self._creating.discard(logical_id)

    # ------------------------------------------------------------------ resources
    def _served_by_gateway(self, logical_id: str, properties: dict[str, Any]) -> None:
        self.created.refs[logical_id] = f"local-{logical_id.lower()}"

    def _run_in_process(self, logical_id: str, properties: dict[str, Any]) -> None:
        """A function's name is its logical id: docsvc.adapters.functions calls it by that name."""
        self.created.refs[logical_id] = logical_id

    def _table(self, logical_id: str, properties: dict[str, Any]) -> None:
        props = self.resolve(properties)
        name = props.get("TableName", logical_id)
        request: dict[str, Any] = {
            "TableName": name,
            "AttributeDefinitions": props["AttributeDefinitions"],
            "KeySchema": props["KeySchema"],
            "BillingMode": props.get("BillingMode", "PAY_PER_REQUEST"),
        }
        if props.get("GlobalSecondaryIndexes"):
            request["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
        stream = props.get("StreamSpecification")
        if stream:
            request["StreamSpecification"] = {
                "StreamEnabled": True,
                "StreamViewType": stream["StreamViewType"],
            }
        client: Any = self._client("dynamodb")
        table = client.create_table(**request)["TableDescription"]
        ttl = props.get("TimeToLiveSpecification")
        if ttl and ttl.get("Enabled"):
            client.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
        self.created.refs[logical_id] = name
        self.created.attributes[(logical_id, "Arn")] = (
            f"arn:aws:dynamodb:{self.region}:{self.account_id}:table/{name}"
        )
        if stream:
            self.created.attributes[(logical_id, "StreamArn")] = table["LatestStreamArn"]

    def _queue(self, logical_id: str, properties: dict[str, Any]) -> None:
        props = self.resolve(properties)
        name = props.get("QueueName", logical_id)
        attributes: dict[str, str] = {}
        for key in (
            "VisibilityTimeout",
            "MessageRetentionPeriod",
            "DelaySeconds",
            "ReceiveMessageWaitTimeSeconds",
        ):
            if key in props:
                attributes[key] = str(props[key])
        if "RedrivePolicy" in props:
            attributes["RedrivePolicy"] = json.dumps(props["RedrivePolicy"])
        if props.get("FifoQueue"):
            attributes["FifoQueue"] = "true"
        sqs: Any = self._client("sqs")
        url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        self.created.refs[logical_id] = url
        self.created.attributes[(logical_id, "Arn")] = f"arn:aws:sqs:{self.region}:{self.account_id}:{name}"
        self.created.attributes[(logical_id, "QueueName")] = name
        self.created.attributes[(logical_id, "QueueUrl")] = url

    def _bucket(self, logical_id: str, properties: dict[str, Any]) -> None:
        props = self.resolve(properties)
        name = props.get("BucketName", logical_id.lower())
        client: Any = self._client("s3")
        client.create_bucket(Bucket=name)
        notifications = props.get("NotificationConfiguration", {}).get("QueueConfigurations", [])
        if notifications:
            client.put_bucket_notification_configuration(
                Bucket=name,
                NotificationConfiguration={
                    "QueueConfigurations": [
                        {
                            "QueueArn": notification["Queue"],
                            "Events": [notification["Event"]],
                            **_key_filter(notification),
                        }
                        for notification in notifications
                    ]
                },
            )
        self.created.refs[logical_id] = name
        self.created.attributes[(logical_id, "Arn")] = f"arn:aws:s3:::{name}"

    def _user_pool(self, logical_id: str, properties: dict[str, Any]) -> None:
        props = self.resolve(properties)
        settings = {key: props[key] for key in _USER_POOL_SETTINGS if key in props}
        client: Any = self._client("cognito-idp")
        pool = client.create_user_pool(PoolName=props.get("UserPoolName", logical_id), **settings)["UserPool"]
        self.created.refs[logical_id] = pool["Id"]
        self.created.attributes[(logical_id, "Arn")] = pool["Arn"]
        self.created.attributes[(logical_id, "ProviderName")] = (
            f"cognito-idp.{self.region}.amazonaws.com/{pool['Id']}"
        )

    def _user_pool_client(self, logical_id: str, properties: dict[str, Any]) -> None:
        props = self.resolve(properties)
        settings = {key: props[key] for key in _CLIENT_SETTINGS if key in props}
        client: Any = self._client("cognito-idp")
        created = client.create_user_pool_client(
            UserPoolId=props["UserPoolId"], ClientName=props.get("ClientName", logical_id), **settings
        )["UserPoolClient"]
        self.created.refs[logical_id] = created["ClientId"]


def _key_filter(notification: dict[str, Any]) -> dict[str, Any]:
    rules = notification.get("Filter", {}).get("S3Key", {}).get("Rules", [])
    return {"Filter": {"Key": {"FilterRules": rules}}} if rules else {}

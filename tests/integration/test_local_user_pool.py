"""The local stack creates the console's user pool and its app client from template.yaml, as it does
tables and queues: Ref gives their ids, and the pool keeps the template's sign-in settings."""

from __future__ import annotations

import boto3
from docsvc.local.stack import REGION, Deployment


def test_the_user_pool_and_its_client_exist_with_the_templates_settings(deployment: Deployment) -> None:
    pool_id = deployment.provisioned.refs["UserPool"]
    client_id = deployment.provisioned.refs["UserPoolClient"]
    cognito = boto3.client("cognito-idp", region_name=REGION)

    pool = cognito.describe_user_pool(UserPoolId=pool_id)["UserPool"]
    client = cognito.describe_user_pool_client(UserPoolId=pool_id, ClientId=client_id)["UserPoolClient"]

    assert deployment.provisioned.attributes[("UserPool", "Arn")] == pool["Arn"]
    assert pool["UsernameAttributes"] == ["email"]
    assert pool["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is True
    assert pool["Policies"]["PasswordPolicy"]["MinimumLength"] == 12
    assert sorted(client["ExplicitAuthFlows"]) == ["ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_PASSWORD_AUTH"]
    assert client["PreventUserExistenceErrors"] == "ENABLED"
    assert "ClientSecret" not in client
    assert "email" not in client["WriteAttributes"]  # a member cannot change the email they are known by
    assert pool["UserAttributeUpdateSettings"]["AttributesRequireVerificationBeforeUpdate"] == ["email"]
    console = deployment.function("ConsoleFunction").environment
    assert (console["USER_POOL_ID"], console["USER_POOL_CLIENT_ID"]) == (pool_id, client_id)
    assert console["MEMBERS_TABLE"] == deployment.provisioned.refs["MembersTable"]
    assert console["SHOW_TEMPORARY_PASSWORDS"] == "true"  # the local stack mails no invitations


def test_the_members_table_has_its_index_by_user(deployment: Deployment) -> None:
    table = boto3.client("dynamodb", region_name=REGION).describe_table(TableName="MembersTable")["Table"]

    assert [index["IndexName"] for index in table["GlobalSecondaryIndexes"]] == ["members_by_user"]

"""The console's user pool: Amazon Cognito (cognito-idp), the domain's UserDirectory.

Users are named by their email (the pool's username attribute); their id is the pool's `sub`. Sign-in
is USER_PASSWORD_AUTH on the console's app client (no secret); Cognito checks every access token it
is handed (signature, expiry, revocation by a global sign-out), so this module keeps no keys of its
own. Creating and finding users are the Admin* calls, the only ones that need IAM. An invitation is
AdminCreateUser's: Cognito mails the temporary password; MessageAction RESEND gives a user who has
never signed in (FORCE_CHANGE_PASSWORD) a new one and mails it again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain.members import DirectoryUser, NewPasswordRequired, Tokens
from docsvc.errors import BadRequest, TooManyRequests, Unauthorized

WRONG_CREDENTIALS = "The email or the password is wrong."
SIGN_IN_AGAIN = "The sign-in has expired: sign in again."
RESET_REQUIRED = (
    "The password of this account must be reset before it can sign in: ask the operator of this "
    "deployment to reset it."
)
NOT_DELIVERED = (
    "The user pool could not send the invitation email to {email}: check the address, then invite them again."
)
POLICY_SENTENCE = (
    "Choose a password of at least 12 characters with a lower case and an upper case letter, "
    "a digit and a symbol."
)
_REFUSED = {"NotAuthorizedException", "UserNotFoundException", "UserNotConfirmedException"}
_THROTTLED = {"TooManyRequestsException", "LimitExceededException", "TooManyFailedAttemptsException"}


def _code(error: Exception) -> str:
    response = getattr(error, "response", None)
    return str(response.get("Error", {}).get("Code", "")) if isinstance(response, dict) else ""


def _translated(error: Exception, refused: str) -> Exception:
    """A Cognito refusal as the domain's error; anything else as it was."""
    code = _code(error)
    if code in _REFUSED:
        return Unauthorized(refused)
    if code == "InvalidPasswordException":
        return BadRequest(POLICY_SENTENCE)
    if code in _THROTTLED:
        return TooManyRequests("Too many attempts: wait a minute, then try again.", retry_after=60)
    if code == "PasswordResetRequiredException":
        return Unauthorized(RESET_REQUIRED)
    return error


def _invitation_error(error: Exception, email: str) -> Exception:
    """A refused invitation as the domain's error: mail that could not go out, a limit of the pool
    (its daily email quota, its request rate), an address it does not take."""
    code = _code(error)
    if code == "CodeDeliveryFailureException":
        return BadRequest(NOT_DELIVERED.format(email=email))
    if code in _THROTTLED:
        return TooManyRequests(
            "The user pool is sending too many invitations now: try again in a minute.", retry_after=60
        )
    if code == "InvalidParameterException":
        return BadRequest(f"the user pool does not take '{email}' as an email address")
    return error


def _attributes(listed: list[dict[str, str]]) -> dict[str, str]:
    return {attribute["Name"]: attribute["Value"] for attribute in listed}


class CognitoUserDirectory:
    def __init__(self, user_pool_id: str | None = None, client_id: str | None = None) -> None:
        self._pool = user_pool_id or settings().user_pool_id
        self._client_id = client_id or settings().user_pool_client_id

    @property
    def _client(self) -> Any:
        return aws.cognito_idp()

    def find_user(self, email: str) -> DirectoryUser | None:
        try:
            user = self._client.admin_get_user(UserPoolId=self._pool, Username=email)
        except Exception as error:
            if _code(error) == "UserNotFoundException":
                return None
            raise _invitation_error(error, email) from None
        return _user(user["Username"], user.get("UserAttributes", []), user.get("UserStatus"))

    def create_user(self, email: str, temporary_password: str) -> DirectoryUser | None:
        try:
            user = self._client.admin_create_user(
                UserPoolId=self._pool,
                Username=email,
                TemporaryPassword=temporary_password,
                UserAttributes=[
                    {"Name": "email", "Value": email},
                    {"Name": "email_verified", "Value": "true"},
                ],
                DesiredDeliveryMediums=["EMAIL"],
            )["User"]
        except Exception as error:
            if _code(error) == "UsernameExistsException":
                return None
            raise _invitation_error(error, email) from None
        created = _user(user["Username"], user.get("Attributes", []), user.get("UserStatus"))
        return replace(created, created_now=True)

    def reissue_invitation(self, email: str, temporary_password: str) -> bool:
        try:
            self._client.admin_create_user(
                UserPoolId=self._pool,
                Username=email,
                TemporaryPassword=temporary_password,
                MessageAction="RESEND",
                DesiredDeliveryMediums=["EMAIL"],
            )
        except Exception as error:
            if _code(error) == "UnsupportedUserStateException":  # signed in meanwhile: nothing to resend
                return False
            raise _invitation_error(error, email) from None
        return True

    def sign_in(self, email: str, password: str) -> Tokens | NewPasswordRequired:
        try:
            answer = self._client.initiate_auth(
                ClientId=self._client_id,
                AuthFlow="USER_PASSWORD_AUTH",
                AuthParameters={"USERNAME": email, "PASSWORD": password},
            )
        except Exception as error:
            raise _translated(error, WRONG_CREDENTIALS) from None
        if answer.get("ChallengeName") == "NEW_PASSWORD_REQUIRED":
            return NewPasswordRequired(email=email, session=answer["Session"])
        return _tokens(answer)

    def answer_new_password(self, challenge: NewPasswordRequired, new_password: str) -> Tokens:
        try:
            answer = self._client.respond_to_auth_challenge(
                ClientId=self._client_id,
                ChallengeName="NEW_PASSWORD_REQUIRED",
                Session=challenge.session,
                ChallengeResponses={"USERNAME": challenge.email, "NEW_PASSWORD": new_password},
            )
        except Exception as error:
            if _code(error) in {"CodeMismatchException", "ExpiredCodeException", "ResourceNotFoundException"}:
                raise Unauthorized(SIGN_IN_AGAIN) from None
            raise _translated(error, SIGN_IN_AGAIN) from None
        return _tokens(answer)

    def refresh(self, refresh_token: str) -> Tokens:
        try:
            answer = self._client.initiate_auth(
                ClientId=self._client_id,
                AuthFlow="REFRESH_TOKEN_AUTH",
                AuthParameters={"REFRESH_TOKEN": refresh_token},
            )
        except Exception as error:
            if _code(error) == "ResourceNotFoundException":
                raise Unauthorized(SIGN_IN_AGAIN) from None
            raise _translated(error, SIGN_IN_AGAIN) from None
        return _tokens(answer)

    def user_of(self, access_token: str) -> DirectoryUser:
        try:
            user = self._client.get_user(AccessToken=access_token)
        except Exception as error:
            raise _translated(error, SIGN_IN_AGAIN) from None
        return _user(user["Username"], user.get("UserAttributes", []))

    def sign_out(self, access_token: str) -> bool:
        try:
            self._client.global_sign_out(AccessToken=access_token)
        except Exception as error:
            if _code(error) in _REFUSED:  # the token was revoked or has expired
                return False
            raise
        return True


def _user(username: str, attributes: list[dict[str, str]], status: str | None = None) -> DirectoryUser:
    values = _attributes(attributes)
    return DirectoryUser(
        user_id=values.get("sub", username),
        email=values.get("email", username),
        awaiting_first_sign_in=status == "FORCE_CHANGE_PASSWORD",
    )


def _tokens(answer: dict[str, Any]) -> Tokens:
    result = answer.get("AuthenticationResult")
    if not result:  # another challenge (MFA): the pool is not set up for one the console can answer
        raise Unauthorized("This account needs a sign-in step the console does not offer.")
    return Tokens(
        access_token=result["AccessToken"],
        refresh_token=result.get("RefreshToken"),
        expires_in=int(result.get("ExpiresIn", 3600)),
    )

"""The tenant: one environment of one organization. Every read and write carries it in its key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Environment = Literal["test", "production"]
ENVIRONMENTS: tuple[Environment, ...] = ("test", "production")
ENVIRONMENT_HELP = "The environment the resource lives in (that of the key that made it): test or production."


@dataclass(frozen=True, slots=True)
class Tenant:
    organization_id: str
    environment: Environment

    @property
    def key(self) -> str:
        """The partition key prefix of everything this tenant owns."""
        return f"ORG#{self.organization_id}#ENV#{self.environment}"

    @classmethod
    def of_key(cls, key: str) -> Tenant:
        """The tenant of a partition key that starts with its `key` (`ORG#<org>#ENV#<env>[#...]`)."""
        parts = key.split("#")
        if len(parts) < 4 or parts[0] != "ORG" or parts[2] != "ENV" or parts[3] not in ENVIRONMENTS:
            raise ValueError(f"not a tenant's key: {key!r}")
        return cls(parts[1], parts[3])

    @property
    def storage_prefix(self) -> str:
        """The S3 key segment of this tenant's objects."""
        return f"{self.organization_id}/{self.environment}"

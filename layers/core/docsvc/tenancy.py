"""The tenant: one environment of one organization. Every read and write carries it in its key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Environment = Literal["test", "production"]
ENVIRONMENTS: tuple[Environment, ...] = ("test", "production")


@dataclass(frozen=True, slots=True)
class Tenant:
    organization_id: str
    environment: Environment

    @property
    def key(self) -> str:
        """The partition key prefix of everything this tenant owns."""
        return f"ORG#{self.organization_id}#ENV#{self.environment}"

    @property
    def storage_prefix(self) -> str:
        """The S3 key segment of this tenant's objects."""
        return f"{self.organization_id}/{self.environment}"

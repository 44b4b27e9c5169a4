"""Local profiles (`docsvc env …`): named API keys, each with an optional base URL, in a JSON file
only its owner can read.

The file is `$DOCSVC_CONFIG`, else `$XDG_CONFIG_HOME/docsvc/config.json`, else
`~/.config/docsvc/config.json`; it is written with mode 0600 (its folder 0700):

    {"default": "dev", "profiles": {"dev": {"api_key": "svc_test_…", "base_url": "https://…", "live": false}}}
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from docsvc_client.cli.errors import UsageError

__all__ = ["CONFIG_ENV", "Profile", "Profiles", "config_path", "mask"]

CONFIG_ENV = "DOCSVC_CONFIG"
PRODUCTION = "production"


@dataclass
class Profile:
    api_key: str
    base_url: str | None = None
    live: bool = False  # the profile `--live` picks when none is named "production"


@dataclass
class Profiles:
    path: Path
    default: str | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> Profiles:
        where = path or config_path()
        if not where.is_file():
            return cls(where)
        try:
            raw: Any = json.loads(where.read_text(encoding="utf-8"))
        except ValueError as error:
            raise UsageError(f"{where} is not valid JSON: {error}") from None
        entries = raw.get("profiles", {}) if isinstance(raw, dict) else {}
        profiles = {
            str(name): Profile(
                api_key=str(entry["api_key"]),
                base_url=entry.get("base_url") or None,
                live=bool(entry.get("live", False)),
            )
            for name, entry in entries.items()
            if isinstance(entry, dict) and entry.get("api_key")
        }
        default = raw.get("default") if isinstance(raw, dict) else None
        return cls(where, default if default in profiles else None, profiles)

    def save(self) -> None:
        """Writes the file atomically, readable by its owner only."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        body = {"default": self.default, "profiles": {n: asdict(p) for n, p in sorted(self.profiles.items())}}
        descriptor, temporary = tempfile.mkstemp(prefix=".config-", dir=self.path.parent)  # mode 0600
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(body, handle, indent=2)
                handle.write("\n")
            os.chmod(temporary, 0o600)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def add(self, name: str, profile: Profile) -> None:
        """Adds or replaces a profile; the first one becomes the default, a live one the only live one."""
        if profile.live:
            for other in self.profiles.values():
                other.live = False
        self.profiles[name] = profile
        if self.default is None:
            self.default = name

    def switch(self, name: str) -> None:
        self._require(name)
        self.default = name

    def remove(self, name: str) -> None:
        self._require(name)
        del self.profiles[name]
        if self.default == name:
            self.default = next(iter(sorted(self.profiles)), None)

    def get(self, name: str) -> Profile:
        return self.profiles[self._require(name)]

    def live(self) -> tuple[str, Profile] | None:
        """The profile `--live` means: the one named "production", else the one marked live."""
        if PRODUCTION in self.profiles:
            return PRODUCTION, self.profiles[PRODUCTION]
        for name, profile in sorted(self.profiles.items()):
            if profile.live:
                return name, profile
        return None

    def _require(self, name: str) -> str:
        if name not in self.profiles:
            known = ", ".join(sorted(self.profiles)) or "none yet: `docsvc env add NAME --api-key KEY`"
            raise UsageError(f"no profile {name!r} (profiles: {known})")
        return name


def config_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME")
    folder = Path(base).expanduser() if base else Path.home() / ".config"
    return folder / "docsvc" / "config.json"


def mask(api_key: str) -> str:
    """Enough of a key to recognise it, never the key: `svc_test_ab12…`."""
    prefix = api_key.rsplit("_", 1)[0] + "_" if "_" in api_key else ""
    return f"{prefix}{api_key[len(prefix) : len(prefix) + 4]}…"

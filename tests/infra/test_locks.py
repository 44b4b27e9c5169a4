"""The layers' lock files (layers/<layer>/requirements.lock) hold exactly what pyproject.toml asks of each
layer: a dependency added, dropped or re-bounded in pyproject.toml without `make lock` fails here, not in a
build that would ship something else. Also how layers/requirements.py writes a lock, from a made-up pip
report and PyPI listing (no network)."""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from packaging.specifiers import SpecifierSet

from tests.conftest import ROOT

GROUPS = ("core", "documents")


def _load_requirements_module() -> Any:
    spec = importlib.util.spec_from_file_location("layer_requirements", ROOT / "layers" / "requirements.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


requirements = _load_requirements_module()


@dataclass
class Locked:
    version: str
    hashes: list[str] = field(default_factory=list)
    via: set[str] = field(default_factory=set)


@dataclass
class Lock:
    requirements: list[str]
    entries: dict[str, Locked]


_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$")
_HASH = re.compile(r"^    --hash=sha256:([0-9a-f]{64})( \\)?$")
_VIA = re.compile(r"^    # via (\S+)$")
_REQUIREMENT = re.compile(r"^#   (.+)$")


def parse_lock(path: Path) -> Lock:
    """The requirements a lock was written for and its entries; an unexpected line fails."""
    lock = Lock([], {})
    current: Locked | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if match := _REQUIREMENT.match(line):
            lock.requirements.append(match.group(1))
        elif match := _PIN.match(line):
            current = lock.entries.setdefault(requirements.canonical(match.group(1)), Locked(match.group(2)))
        elif (match := _HASH.match(line)) and current is not None:
            current.hashes.append(match.group(1))
        elif (match := _VIA.match(line)) and current is not None:
            current.via.add(match.group(1))
        elif not line.startswith("# "):
            raise AssertionError(f"{path.relative_to(ROOT)}:{number}: not a line of a lock: {line!r}")
    return lock


def lock_of(group: str) -> Lock:
    path = ROOT / "layers" / group / "requirements.lock"
    assert path.is_file(), f"no {path.relative_to(ROOT)}: run `make lock`"
    return parse_lock(path)


@pytest.mark.parametrize("group", GROUPS)
def test_the_lock_was_written_for_what_pyproject_asks_of_the_layer_now(group: str) -> None:
    assert lock_of(group).requirements == requirements.group_requirements(group), (
        f"pyproject.toml changed what the {group} layer requires since its lock was written: run `make lock`"
    )


@pytest.mark.parametrize("group", GROUPS)
def test_every_requirement_of_the_layer_is_locked_at_a_version_it_allows(group: str) -> None:
    from packaging.requirements import Requirement

    lock = lock_of(group)
    for text in requirements.group_requirements(group):
        requirement = Requirement(text)
        name = requirements.canonical(requirement.name)
        assert name in lock.entries, f"{group}: {text} is not in the lock: run `make lock`"
        assert lock.entries[name].version in SpecifierSet(str(requirement.specifier)), (
            f"{group}: the lock holds {name}=={lock.entries[name].version}, which {text} does not allow"
        )
        assert "pyproject.toml" in lock.entries[name].via


@pytest.mark.parametrize("group", GROUPS)
def test_the_lock_holds_only_the_closure_of_the_layer_requirements(group: str) -> None:
    lock = lock_of(group)
    asked = {requirements.requirement_name(text) for text in requirements.group_requirements(group)}
    direct = {name for name, entry in lock.entries.items() if "pyproject.toml" in entry.via}
    assert direct == asked, (
        f"{group}: locked as asked by pyproject.toml {sorted(direct)}, asked {sorted(asked)}"
    )

    reached, pending = set(direct), list(direct)
    dependants = {
        name: {other for other, entry in lock.entries.items() if name in entry.via} for name in lock.entries
    }
    while pending:
        for other in dependants[pending.pop()] - reached:
            reached.add(other)
            pending.append(other)
    assert reached == set(lock.entries), f"{group}: nothing requires {sorted(set(lock.entries) - reached)}"
    unknown = {source for entry in lock.entries.values() for source in entry.via} - {
        *lock.entries,
        "pyproject.toml",
    }
    assert unknown == set(), f"{group}: locked as needed by {sorted(unknown)}, which the lock does not hold"


@pytest.mark.parametrize("group", GROUPS)
def test_every_locked_distribution_has_hashes_and_none_is_the_runtime_s_own(group: str) -> None:
    lock = lock_of(group)

    assert {name for name, entry in lock.entries.items() if not entry.hashes} == set()
    assert set(lock.entries) & requirements.RUNTIME_PROVIDED == set()


def test_the_two_layers_lock_no_distribution_at_two_versions() -> None:
    """Both layers land in /opt/python: one version of a distribution shadows the other's."""
    core, documents = lock_of("core").entries, lock_of("documents").entries

    differing = {name for name in set(core) & set(documents) if core[name].version != documents[name].version}

    assert differing == set()


# ---------------------------------------------------------------------------- how a lock is written


def _installed(name: str, version: str, requires: list[str], sha256: str) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "version": version, "requires_dist": requires},
        "download_info": {"archive_info": {"hashes": {"sha256": sha256}}},
    }


REPORT = {
    "install": [
        _installed("Alpha_Lib", "1.2.0", ["beta>=1", 'gamma; sys_platform == "win32"', "boto3"], "a" * 64),
        _installed("beta", "1.0.0", ['delta; extra == "fast"'], "b" * 64),
        _installed("gamma", "3.0", [], "c" * 64),
        _installed("boto3", "1.40.0", ["botocore"], "d" * 64),
    ]
}
PYPI = {
    ("Alpha_Lib", "1.2.0"): [
        {
            "filename": "alpha_lib-1.2.0-cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
            "digests": {"sha256": "a" * 64},
        },
        {
            "filename": "alpha_lib-1.2.0-cp312-cp312-manylinux_2_28_aarch64.whl",
            "digests": {"sha256": "e" * 64},
        },
        {
            "filename": "alpha_lib-1.2.0-cp312-cp312-manylinux_2_17_x86_64.whl",
            "digests": {"sha256": "f" * 64},
        },
        {
            "filename": "alpha_lib-1.2.0-cp311-cp311-manylinux_2_17_aarch64.whl",
            "digests": {"sha256": "1" * 64},
        },
        {"filename": "alpha_lib-1.2.0.tar.gz", "digests": {"sha256": "2" * 64}},
    ],
    ("beta", "1.0.0"): [{"filename": "beta-1.0.0-py3-none-any.whl", "digests": {"sha256": "b" * 64}}],
}


def test_a_lock_pins_the_closure_on_lambda_with_the_hashes_of_every_wheel_for_lambda() -> None:
    text = requirements.lock_file(
        "core", ["alpha-lib>=1"], REPORT, lambda name, version: PYPI[(name, version)]
    )

    assert [line for line in text.splitlines() if not line.startswith("#")] == [
        "alpha-lib==1.2.0 \\",
        f"    --hash=sha256:{'a' * 64} \\",
        f"    --hash=sha256:{'e' * 64}",
        "    # via pyproject.toml",
        "beta==1.0.0 \\",
        f"    --hash=sha256:{'b' * 64}",
        "    # via alpha-lib",
    ]
    assert "#   alpha-lib>=1" in text.splitlines()


def test_writing_a_lock_fails_when_pypi_has_not_the_wheel_pip_chose() -> None:
    listing = {
        **PYPI,
        ("beta", "1.0.0"): [{"filename": "beta-1.0.0.tar.gz", "digests": {"sha256": "b" * 64}}],
    }

    with pytest.raises(SystemExit, match=r"beta 1\.0\.0"):
        requirements.lock_file("core", ["alpha-lib"], REPORT, lambda name, version: listing[(name, version)])

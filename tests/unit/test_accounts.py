"""API keys: their prefixes, their randomness, the hash that is stored, and the part that may be shown."""

from __future__ import annotations

import hashlib
import re

import pytest
from docsvc.domain.accounts import KEY_PREFIXES, display_prefix, generate_key, hash_key
from docsvc.tenancy import Environment

BASE62_SECRET = re.compile(r"^[0-9A-Za-z]{40}$")


@pytest.mark.parametrize(
    ("environment", "legacy", "prefix"),
    [("test", False, "svc_test_"), ("production", False, "svc_live_"), ("production", True, "sk_svc_")],
)
def test_a_key_starts_with_the_prefix_of_its_environment(
    environment: Environment, legacy: bool, prefix: str
) -> None:
    key = generate_key(environment, legacy=legacy)

    assert key.startswith(prefix)
    assert KEY_PREFIXES[prefix] == environment


def test_legacy_keys_exist_only_for_production() -> None:
    with pytest.raises(ValueError, match="production"):
        generate_key("test", legacy=True)


@pytest.mark.parametrize(
    ("environment", "legacy"), [("test", False), ("production", False), ("production", True)]
)
def test_the_secret_is_40_base62_characters(environment: Environment, legacy: bool) -> None:
    key = generate_key(environment, legacy=legacy)

    secret = key.removeprefix("svc_test_").removeprefix("svc_live_").removeprefix("sk_svc_")

    assert BASE62_SECRET.match(secret), key
    assert len(secret) * 5.954 >= 128  # log2(62) bits a character: about 238 bits in all


def test_keys_do_not_repeat() -> None:
    keys = {generate_key("test") for _ in range(1_000)}

    assert len(keys) == 1_000


def test_keys_use_the_whole_alphabet() -> None:
    keys = "".join(generate_key("production") for _ in range(200))

    secrets_only = keys.replace("svc_live_", "")

    assert set(secrets_only) == set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def test_the_stored_hash_is_the_sha256_hex_digest_of_the_key() -> None:
    key = "svc_test_" + "a" * 40

    digest = hash_key(key)

    assert digest == hashlib.sha256(key.encode()).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert hash_key(key + "b") != digest


@pytest.mark.parametrize("prefix", ["svc_test_", "svc_live_", "sk_svc_"])
def test_the_displayed_prefix_is_the_type_and_four_characters_never_the_key(prefix: str) -> None:
    key = prefix + "Ab3dEfGhIjKlMnOpQrStUvWxYz0123456789abcd"

    shown = display_prefix(key)

    assert shown == prefix + "Ab3d"
    assert len(shown) < len(key)


@pytest.mark.parametrize(
    ("environment", "legacy"), [("test", False), ("production", False), ("production", True)]
)
def test_a_generated_key_shows_its_type_and_hides_all_but_four_secret_characters(
    environment: Environment, legacy: bool
) -> None:
    key = generate_key(environment, legacy=legacy)

    shown = display_prefix(key)

    assert key.startswith(shown)
    assert shown[:-4] in KEY_PREFIXES
    assert len(key) - len(shown) == 36  # 36 of the 40 secret characters stay hidden


def test_an_unrecognised_key_shows_only_four_characters() -> None:
    shown = display_prefix("pk_" + "x" * 40)

    assert shown == "pk_x"

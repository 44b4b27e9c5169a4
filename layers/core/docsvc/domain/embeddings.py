"""The built-in embedder, `docsvc-hash-256`: needs no model and no network.

A feature-hashed bag of words and word pairs: every lower-cased token and every pair of neighbouring
tokens is hashed (BLAKE2b) to one of 256 signed dimensions and weighted by 1 + log(count); the vector is
L2-normalised. Documents that share vocabulary have a high cosine similarity. It captures no meaning
beyond shared words: a deployment that needs semantic search plugs in a model-backed embedder.
"""

from __future__ import annotations

import hashlib
import math
import re
from array import array
from collections import Counter
from itertools import pairwise

EMBEDDER_NAME = "docsvc-hash-256"
DIMENSIONS = 256
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_MAX_CHARACTERS = 200_000


def _features(text: str) -> Counter[str]:
    tokens = [token.lower() for token in _TOKEN.findall(text[:_MAX_CHARACTERS])]
    features = Counter(tokens)
    features.update(f"{left} {right}" for left, right in pairwise(tokens))
    return features


def embed(text: str) -> list[float]:
    vector = [0.0] * DIMENSIONS
    for feature, count in _features(text).items():
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "big")
        sign = 1.0 if value & 1 else -1.0
        vector[(value >> 1) % DIMENSIONS] += sign * (1.0 + math.log(count))
    norm = math.sqrt(sum(component * component for component in vector))
    return [component / norm for component in vector] if norm else vector


def cosine(left: list[float], right: list[float]) -> float:
    return sum(a * b for a, b in zip(left, right, strict=True))


def to_bytes(vector: list[float]) -> bytes:
    return array("f", vector).tobytes()


def from_bytes(blob: bytes) -> list[float]:
    values = array("f")
    values.frombytes(blob)
    return [round(value, 6) for value in values]

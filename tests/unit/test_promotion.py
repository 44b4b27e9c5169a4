"""Which URLs of a promoted graph production cannot rely on."""

from __future__ import annotations

import pytest
from docsvc.domain.promotion import unreachable_urls
from docsvc.workflows.graph import Block, Graph


def graph_calling(url: str) -> Graph:
    return Graph(blocks=[Block(id="post", type="api_call", config={"url": url, "headers": {"X": "y"}})])


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://localhost:8080/hook", "on localhost"),
        ("http://api.localhost/hook", "on localhost"),
        ("http://127.0.0.1/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://10.1.2.3/hook", "private"),
        ("http://192.168.1.20/hook", "private"),
        ("https://a1b2.ngrok-free.app/hook", "tunnel"),
        ("https://quiet-lake.trycloudflare.com/hook", "tunnel"),
        ("https://x.loca.lt/hook", "tunnel"),
    ],
)
def test_local_private_and_tunnelled_urls_are_flagged(url: str, words: str) -> None:
    (warning,) = unreachable_urls(graph_calling(url))

    assert "block 'post'" in warning and words in warning and url in warning


@pytest.mark.parametrize(
    "url", ["https://ledger.example.com/hook", "https://93.184.216.34/hook", "not a url"]
)
def test_public_urls_and_other_values_are_not(url: str) -> None:
    assert unreachable_urls(graph_calling(url)) == []


def test_urls_nested_anywhere_in_a_config_are_found() -> None:
    graph = Graph(blocks=[Block(id="n", type="note", config={"links": [{"href": "http://localhost/x"}]})])

    assert len(unreachable_urls(graph)) == 1

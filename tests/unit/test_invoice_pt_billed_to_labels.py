"""Portuguese invoices name their customer "Cobrança para" or "Faturado para" (billed to)."""

import pytest
from docsvc.intelligence.extraction import extract

SCHEMA = {
    "type": "object",
    "properties": {
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
    },
}


@pytest.mark.parametrize("label", ["Cobrança para:", "Faturado para:", "Faturar para:"])
def test_a_portuguese_billed_to_label_names_the_customer(label: str) -> None:
    text = f"Oficina Lda.\nFATURA\nTotal\n$ 50.00\n{label}\nMaria Souza\nRua das Flores, 12"
    assert extract([text], SCHEMA).output["customer"]["name"] == "Maria Souza"

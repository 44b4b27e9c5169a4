"""An address's line printed number first, told from a name that opens with a number."""

import pytest
from docsvc.intelligence.matching import _is_street


@pytest.mark.parametrize("line", ["1st Choice Plumbing", "3rd Rock Studios"])
def test_a_name_opening_with_an_ordinal_is_no_street(line: str) -> None:
    assert not _is_street(line)


@pytest.mark.parametrize(
    "line", ["2nd Floor, Ramis Center", "5th Avenue", "8636 Sentinel Place", "75000 Paris"]
)
def test_a_floor_a_street_or_a_postcode_printed_number_first_is_an_address_line(line: str) -> None:
    assert _is_street(line)

"""Swedish invoices (a krona named by "kr" over a column, the issuer named in a footer of sentences, a
postcode grouped "123 45", Nordic legal forms), labels over a currency over their amount, a row of sum
headings read a column at a time, labels after slashes with no colon, an addressee in a table's first
column, the euro sign a TeX document's text layer writes as "e", and a rental's landlord and tenant.
Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.pairs import text_pairs
from docsvc.intelligence.values import currency_of, krone_of, parse_number

from tests.unit.test_invoice_labels_sl_ro_mx_au import invoice_output


@pytest.mark.parametrize(
    ("label", "tax_label"),
    [("Belopp före moms", "Moms totalt"), ("Amount before tax", "Tax"), ("Total before VAT", "VAT")],
)
def test_an_amount_before_tax_is_the_net_total(label: str, tax_label: str) -> None:
    sums = f"| {label} | 99 600 kr |\n|---|---|\n| {tax_label} | 24 900 kr |\n| Att betala | 124 500 kr |"
    output = invoice_output("Faktura 12345", "Fakturadatum 2024-12-26", sums)
    assert (output["net_total"], output["tax_total"], output["total"]) == (99600.0, 24900.0, 124500.0)


def test_labels_in_a_footer_of_sentences_are_cut_at_each_full_stop() -> None:
    """ "Godkänd för F-skatt: Ja. Organisationsnr: 556251-6806. Momsregnr: SE556251680601.": each label
    with its own value, the VAT number not run into the first label's."""
    footer = "Godkänd för F-skatt: Ja. Organisationsnr: 556251-6806. Momsregnr: SE556251680601."
    output = invoice_output("Faktura 463", "Fakturadatum 2021-06-14", "ATT BETALA 38290", footer)
    assert output["issuer"]["vat_id"] == "SE556251680601"  # type: ignore[index]


@pytest.mark.parametrize(("country", "currency"), [("SE556251680601", "SEK"), ("DE123456789", None)])
def test_kr_heading_a_column_is_the_krona_of_a_swedish_document(country: str, currency: str | None) -> None:
    texts = ["| Exkl moms | Moms kr | ATT BETALA |", "| 38290 | 0 | 38290 |", f"Momsregnr: {country}"]
    assert krone_of(texts, ["SE"] if country.startswith("SE") else ["DE"]) == currency
    assert krone_of(["Mr Krause", "Krone Hotel"], ["SE"]) is None  # "kr" inside a word is no currency


def test_a_footer_line_opening_with_a_nordic_company_two_lines_over_its_numbers_names_the_issuer() -> None:
    footer = (
        "MixCont AB, 23145, Sankta gertrudsvag 10.\n"
        "Kontakta oss, Telefon: 0709-191925, Mejla: info@example.se.\n"
        "Godkänd för F-skatt: Ja. Organisationsnr: 556251-6806. Momsregnr: SE556251680601."
    )
    output = invoice_output(
        "Faktura", "Fakturanr: 463\nFakturadatum: 2021-06-14", "ATT BETALA: 38290", footer
    )
    assert output["issuer"]["name"] == "MixCont AB"  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "company"),
    [("Nordlys AS", True), ("Fjord A/S", True), ("Sauna Oy", True), ("Kund Ab", True), ("such as", False)],
)
def test_nordic_legal_forms_end_a_companys_name_in_their_capitals_only(name: str, company: bool) -> None:
    from docsvc.intelligence.matching import _ENDS_LEGAL_FORM

    assert bool(_ENDS_LEGAL_FORM.search(name)) is company


def test_an_address_block_with_a_postcode_grouped_three_and_two_is_the_customers() -> None:
    output = invoice_output(
        "Faktura",
        "Tedros-IT & Associate Ab\nSjövikskajen 6,\n117 58 Liljeholmen Sverige\nTel: +46-733765087",
        "Kundföretag Ab\nBrink-Hosting\nKöpvägen 12\n123 45 Köpstad",
        "Fakturanummer: 12345\nFakturadatum: 26.12.2024",
        "Summa att betala: 124 500 kr",
    )
    assert output["customer"]["name"] == "Kundföretag Ab"  # type: ignore[index]


def test_a_row_of_sum_headings_read_a_column_at_a_time_pairs_each_with_its_figure() -> None:
    """ "Exp avg", "Exkl moms", "Moms %", "Moms kr", "ATT BETALA" over their five figures in one block:
    each heading its figure, the rate's heading none."""
    block = "Exp avg\nExkl moms\nMoms %\nMoms kr\nATT BETALA\n25,00\n16 772,00\n25\n4 193,00\n20 965,00"
    output = invoice_output("Faktura 200045", "Fakturadatum 2009-07-03", block)
    assert (output["net_total"], output["tax_total"], output["total"]) == (16772.0, 4193.0, 20965.0)


def test_an_item_tables_headings_over_its_first_row_are_no_labels_of_the_documents_values() -> None:
    """ "btw" over "21,00" is an item's VAT rate, under headings that name a quantity and a price: the
    tax is the one its own label names."""
    headings = "omschrijving\nbtw\nAantal\ntarief\nbedrag"
    row = "Cursus fotobewerking\n21,00\n1 stuks\n78,51\n78,51"
    sums = "btw bedrag 21,00 % over 78,51\n\n16,49\n\nfactuurtotaal\n\n95,00"
    output = invoice_output("factuur 2209058", "factuurdatum 01/12/2022", headings, row, sums)
    assert (output["tax_total"], output["total"]) == (16.49, 95.0)


def test_a_label_over_its_currency_over_its_amount_takes_the_amount() -> None:
    output = invoice_output("factuur 2209058", "factuurdatum 01/12/2022", "factuurtotaal\nEUR\n\n95,00")
    assert (output["total"], output["currency"]) == (95.0, "EUR")


def test_a_known_label_after_a_slash_without_its_colon_is_a_pair_of_its_own() -> None:
    line = "IBAN: NL62 INGB 0651 7722 65 / BIC: INGBNL2A / KvK nr. 08126099 / BTW nr. NL8199.90.966.B01"
    output = invoice_output("factuur 2209058", "factuurdatum 01/12/2022", "factuurtotaal 95,00", line)
    assert output["iban"] == "NL62 INGB 0651 7722 65"
    assert output["issuer"]["vat_id"] == "NL8199.90.966.B01"  # type: ignore[index]


def test_a_slash_inside_a_value_before_no_known_label_stays_in_it() -> None:
    from docsvc.intelligence.lines import Line

    lines = [Line(text="Lieferung: Tisch / Stuhl", page=0, block=0, cells=None)]
    pairs, _ = text_pairs(lines, [(0,)], set())
    assert [(pair.label, pair.value) for pair in pairs] == [("Lieferung", "Tisch / Stuhl")]


def test_the_first_tables_first_column_holding_an_address_is_the_customers() -> None:
    table = (
        "| Muster GmbH | Kunden-Nr. | 6010060 |\n|---|---|---|\n"
        "| Beispielstraße 207 | Datum | 11.10.2025 |\n| 12345 Berlin | Seite | 1 |"
    )
    footer = "| Beispiel AG | Bank |\n|---|---|\n| Hauptweg 3 | IBAN |\n| 12345 Berlin | BIC |"
    output = invoice_output(
        "Immobiliengesellschaft mbH\n\nMusterstrasse 3 12345 Berlin", table, "Rechnung Nr. 201851853",
        "Endbetrag 184,00 EUR", footer,
    )  # fmt: skip
    assert output["customer"]["name"] == "Muster GmbH"  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "amount"), [("e 1 710,00", 1710.0), ("e 0,00", 0.0), ("e 5", None), ("10,00 e 20,00", None)]
)
def test_a_lower_case_e_before_an_amount_with_cents_is_the_euro_sign(text: str, amount: float | None) -> None:
    parsed = parse_number(text)
    assert (parsed[0] if parsed else None) == amount
    assert currency_of([f"Total: {text}"]) == ("EUR" if amount is not None else None)


def test_a_landlord_issues_the_rental_invoice_and_the_tenant_receives_it() -> None:
    output = invoice_output(
        "Factura", "Arrendador: Casas Sol S.L.\nDNI: B12345678", "Arrendatario: Kim Bauer\nDNI: 33333333C",
        "Fecha: 2018-05-24", "Total: 54,45 EUR",
    )  # fmt: skip
    assert output["issuer"]["name"] == "Casas Sol S.L."  # type: ignore[index]
    assert output["customer"]["name"] == "Kim Bauer"  # type: ignore[index]


def test_labels_apart_by_a_slash_over_their_values_one_a_line_pair_in_order() -> None:
    """ "Fakt nr / Kundnr" over "200045" and "103": the invoice's number is the first; the line is a
    label, no issuer's name."""
    output = invoice_output(
        "Faktura", "Fakt nr / Kundnr", "200045\n103", "Fakturadatum\n\n2009-07-03", "ATT BETALA 340,00"
    )
    assert output["invoice_number"] == "200045"
    assert output["issuer"] is None or output["issuer"]["name"] != "Fakt nr / Kundnr"  # type: ignore[index]
    # the parts are paired only when each is a known label: "Kundnr" over "103" is no invoice number
    assert (
        invoice_output("Faktura", "Kundnr / Fakt nr", "103\n200045", "ATT BETALA 340,00")["invoice_number"]
        == "200045"
    )


def test_a_czech_table_of_sums_ends_in_its_total_row_before_the_deposits_paid() -> None:
    """ "| Celkem | 63 000,00 | 13 080,00 | 76 080,00 |" sums the rates' rows, a row of the deposits paid
    after it (one amount): the net, the tax and the total."""
    table = (
        "| Částky v CZK | Bez DPH | DPH | Celkem s DPH |\n|---|---|---|---|\n"
        "| Základní sazba 21% | 60 500,00 | 12 705,00 | 73 205,00 |\n"
        "| Snížená sazba 15% | 2 500,00 | 375,00 | 2 875,00 |\n"
        "| Celkem | 63 000,00 | 13 080,00 | 76 080,00 |\n"
        "| Na zálohách zaplaceno |  |  | 0,00 |"
    )
    output = invoice_output("Faktura - daňový doklad", "Číslo: FV-2/2021", table, "Částka k úhradě v CZK")
    assert (output["net_total"], output["tax_total"], output["total"]) == (63000.0, 13080.0, 76080.0)


def test_a_customers_and_an_accounts_number_are_no_invoice_number() -> None:
    output = invoice_output(
        "Faktura - daňový doklad",
        "Číslo účtu:\n1234567890/1234",
        "Zákaznické číslo: 000001",
        "Celkem: 100,00",
    )
    assert output["invoice_number"] is None


def test_a_danish_invoice_with_broken_no_break_spaces_before_kr_reads_its_amounts_in_kroner() -> None:
    """jsPDF writes a no-break space it cannot encode as the replacement character's bytes read as
    Latin-1: "3.149,00ï¿½kr."; the register "CVR" says the krone is Danish."""
    header = "| WebPrinter ApS | FAKTURA |\n|---|---|\n| Platformvej 1 | Fakturanr: INV-2024-0001 |"
    header += "\n| 8000 Aarhus | Dato: 10.02.2024 |\n| CVR: 87654321 |  |"
    sums = "Subtotal:\n3.149,00ï¿½kr.\n\nMoms (25%):\n787,25ï¿½kr.\n\nTotal:\n3.936,25ï¿½kr."
    output = invoice_output(header, "Forfald: 24.02.2024", "FAKTURERES TIL:\n\nTrykkeri Eksempel ApS", sums)
    assert (output["net_total"], output["tax_total"], output["total"]) == (3149.0, 787.25, 3936.25)
    assert (output["currency"], output["invoice_date"], output["due_date"]) == (
        "DKK",
        "2024-02-10",
        "2024-02-24",
    )
    assert output["customer"]["name"] == "Trykkeri Eksempel ApS"  # type: ignore[index]


@pytest.mark.parametrize(
    ("shown", "country"),
    [
        ("CVR: 87654321", "DK"),
        ("Tel: +46 8 123 45", "SE"),
        ("MVA", "NO"),
        ("Y-tunnus 1234567-8", "FI"),
        ("", None),
    ],
)
def test_a_nordic_register_or_telephone_code_tells_the_country_of_kr(shown: str, country: str | None) -> None:
    from docsvc.intelligence.identifiers import countries_of

    found = countries_of(None, ["Faktura 12", shown])
    assert (found[0] if found else None) == country
    assert krone_of(["Total 100,00 kr", shown], found) == {"DK": "DKK", "SE": "SEK", "NO": "NOK"}.get(
        country or ""
    )


def test_a_finnish_price_in_total_is_the_total() -> None:
    output = invoice_output("Lasku", "Varauksen pvm: 2024-04-24", "Mökin hinta kokonaisuudessaan: 12.0")
    assert output["total"] == 12.0


@pytest.mark.parametrize(("count", "paired"), [(2, False), (3, True)])
def test_labels_then_as_many_values_in_one_block_pair_from_three(count: int, paired: bool) -> None:
    """Two labels over two values in one block may be a label over its value twice; three or more read
    a column at a time are a row of headings over its figures."""
    from docsvc.intelligence.lines import Line
    from docsvc.intelligence.pairs import _labels_then_values

    labels = ["Exp avg", "Exkl moms", "ATT BETALA"][-count:]
    values = ["25,00", "16 772,00", "20 965,00"][-count:]
    lines = [Line(text, 0, 0) for text in labels + values]
    pairs, _ = _labels_then_values(lines, [tuple(range(len(lines)))])
    expected = list(zip(labels, values, strict=True)) if paired else []
    assert [(pair.label, pair.value) for pair in pairs] == expected


@pytest.mark.parametrize(("count", "paired"), [(4, True), (5, False)])
def test_labels_apart_by_slashes_pair_up_to_four(count: int, paired: bool) -> None:
    from docsvc.intelligence.lines import Line
    from docsvc.intelligence.pairs import _slashed_labels

    labels = ["Fakt nr", "Kundnr", "Ordernr", "Projekt", "Avdelning"][:count]
    head = " / ".join(labels)
    lines = [Line(head, 0, 0), *(Line(str(100 + at), 0, 1) for at in range(count))]
    blocks = [(0,), tuple(range(1, count + 1))]
    pairs = _slashed_labels(lines, blocks, 0, (head, 0))
    assert [pair.label for pair in pairs] == (labels if paired else [])

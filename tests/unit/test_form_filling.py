"""A form's values read from instructions in plain words, in several languages."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from docsvc.intelligence.form_filling import field_values, statements, unescaped

FIELDS = [
    ("first_name", "First name", "text"),
    ("last_name", "Last name / Surname", "text"),
    ("birth_date", "Date of birth [date]", "text"),
    ("ssn", "Social security number", "text"),
    ("zip", "ZIP code", "text"),
    ("city", "City", "text"),
    ("email", "E-mail address", "text"),
    ("home_phone", "Home phone", "text"),
    ("work_phone", "Work phone", "text"),
    ("us_citizen", "US citizen [check if it applies]", "checkbox"),
    ("female", "Female [check if it applies]", "checkbox"),
    ("male", "Male [check if it applies]", "checkbox"),
    ("applicant_name", "Applicant's full name", "text"),
]


def test_labelled_lines_with_abbreviations_fill_their_fields() -> None:
    instructions = "First name: Jane\n- Last name = Roe\n* DOB: 1990-05-01\n2. SSN: 123-45-6789\nZip: 75001"
    assert field_values(FIELDS, instructions) == {
        "first_name": "Jane",
        "last_name": "Roe",
        "birth_date": "1990-05-01",
        "ssn": "123-45-6789",
        "zip": "75001",
    }


def test_values_stated_in_sentences_are_found() -> None:
    instructions = (
        "The applicant's name is Jane Roe, her date of birth is 1 May 1990 and the city is Paris. "
        "Check the box for US citizen. Set the zip code to 75001. Email 'jane@example.org'."
    )
    assert field_values(FIELDS, instructions) == {
        "applicant_name": "Jane Roe",
        "birth_date": "1 May 1990",
        "city": "Paris",
        "us_citizen": "true",
        "zip": "75001",
        "email": "jane@example.org",
    }


def test_a_value_with_a_comma_stays_whole() -> None:
    assert field_values(FIELDS, "The city is Washington, D.C.") == {"city": "Washington, D.C."}


@pytest.mark.parametrize(
    ("instructions", "expected"),
    [
        (
            "Vorname: Hans\nNachname: Müller\nGeburtsdatum: 01.02.1980\nPLZ: 10115\nOrt: Berlin",
            {
                "first_name": "Hans",
                "last_name": "Müller",
                "birth_date": "01.02.1980",
                "zip": "10115",
                "city": "Berlin",
            },
        ),
        (
            "Prénom : Marie\nNom de famille : Dupont\nDate de naissance : 02/03/1985\nCode postal : 69001",
            {"first_name": "Marie", "last_name": "Dupont", "birth_date": "02/03/1985", "zip": "69001"},
        ),
        (
            "Apellidos: García López. Fecha de nacimiento: 3/4/1970. Código postal: 41001",
            {"last_name": "García López", "birth_date": "3/4/1970", "zip": "41001"},
        ),
        (
            "Имя: Иван\nФамилия: Петров\nДата рождения: 01.01.1990",  # noqa: RUF001
            {"first_name": "Иван", "last_name": "Петров", "birth_date": "01.01.1990"},
        ),
        (
            "名: 太郎\n姓: 山田\n生年月日: 1990年1月1日",
            {"first_name": "太郎", "last_name": "山田", "birth_date": "1990年1月1日"},
        ),
    ],
)
def test_labels_of_other_languages_name_their_fields(instructions: str, expected: dict[str, str]) -> None:
    assert field_values(FIELDS, instructions) == expected


def test_check_boxes_get_true_or_false() -> None:
    assert field_values(FIELDS, "US citizen: ja") == {"us_citizen": "true"}
    assert field_values(FIELDS, "US citizen: non") == {"us_citizen": "false"}
    assert field_values(FIELDS, "Do not check US citizen.") == {"us_citizen": "false"}
    assert field_values(FIELDS, "Sex: female") == {"female": "true"}


@pytest.mark.parametrize(("said", "meant"), [("так", "true"), ("\u041d\u0456", "false"), ("да", "true")])
def test_check_boxes_read_yes_and_no_in_ukrainian_and_russian(said: str, meant: str) -> None:
    assert field_values(FIELDS, f"US citizen: {said}") == {"us_citizen": meant}


def test_one_value_fills_one_field_unless_the_label_names_several() -> None:
    assert field_values(FIELDS, "Phone: 555-0100") in ({"home_phone": "555-0100"}, {"work_phone": "555-0100"})
    assert field_values(FIELDS, "Home and work phone: 555-0100") == {
        "home_phone": "555-0100",
        "work_phone": "555-0100",
    }


def test_a_label_worded_as_a_description_takes_that_field_over_lookalikes() -> None:
    fields = [
        ("a", "Part 1. Mailing Address. 6. C. Enter City or Town.", "text"),
        ("b", "Part 1. Physical Address. 7. C. Enter City or Town.", "text"),
    ]
    instructions = (
        "Part 1. Physical Address. 7. C. Enter City or Town.: Lyon\n"
        "Part 1. Mailing Address. 6. C. Enter City or Town.: Nice"
    )
    assert field_values(fields, instructions) == {"a": "Nice", "b": "Lyon"}


def test_a_field_named_by_its_key_is_filled_however_many_fields_share_its_words() -> None:
    """A form whose every text field is "Textfeld" and a number: the statement "Textfeld 1 5" names the
    field keyed `textfeld_1_5`, though the word it shares with every other key nominates none."""
    fields = [("textfeld_1", "Vor- und Nachname", "text")]
    fields += [(f"textfeld_1_{number}", f"Angabe {number}", "text") for number in range(2, 20)]
    assert field_values(fields, "Textfeld 1 5: Köln\nTextfeld 1: Anna Schmidt") == {
        "textfeld_1": "Anna Schmidt",
        "textfeld_1_5": "Köln",
    }


def test_a_label_printed_twice_fills_the_field_between_its_neighbours_in_the_form() -> None:
    """A form prints "City" at two places; the instructions follow the form, so the city stated after
    the employer's name is the city after that name, not the first one."""
    fields = [
        ("name", "Name", "text"),
        ("city", "City", "text"),
        ("employer", "Employer", "text"),
        ("city_2", "City", "text"),
        ("phone", "Phone", "text"),
    ]
    assert field_values(fields, "Employer: Acme\nCity: Lyon\nPhone: 555-0100") == {
        "employer": "Acme",
        "city_2": "Lyon",
        "phone": "555-0100",
    }
    assert field_values(fields, "Name: Jane Roe\nCity: Nice\nEmployer: Acme") == {
        "name": "Jane Roe",
        "city": "Nice",
        "employer": "Acme",
    }


def test_fields_the_instructions_do_not_name_are_left_out_and_the_result_is_stable() -> None:
    instructions = "City: Lyon\nFavourite colour: blue"
    assert field_values(FIELDS, instructions) == {"city": "Lyon"}
    assert field_values(FIELDS, "") == {}
    assert all(field_values(FIELDS, instructions) == {"city": "Lyon"} for _ in range(3))


def test_enter_reads_both_ways() -> None:
    assert field_values(FIELDS, "Enter 90210 as the zip code") == {"zip": "90210"}
    assert field_values(FIELDS, "Enter the zip code as 90210") == {"zip": "90210"}
    assert [statement.label for statement in statements("City: Lyon; ZIP: 69001")] == ["City", "ZIP"]


def test_the_answer_does_not_depend_on_the_hash_seed() -> None:
    """Long labels sharing most of their words come out alike whatever order Python's sets take."""
    script = (
        "from docsvc.intelligence.form_filling import field_values\n"
        "fields = [(f'f{n}', f'Part {n % 3}. Information About You. {n}. Enter {word}.', 'text')\n"
        "          for n, word in enumerate(['Family Name', 'Given Name', 'Middle Name', 'City or Town',\n"
        "                                    'Province', 'Postal Code', 'Country', 'Telephone'])]\n"
        "text = 'Given name: Jane; family name: Roe; town: Lyon; postal code = 69001'\n"
        "print(sorted(field_values(fields, text).items()))\n"
    )
    answers = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert answers == {"[('f0', 'Roe'), ('f1', 'Jane'), ('f3', 'Lyon'), ('f5', '69001')]\n"}


def test_a_numbered_line_fills_the_field_worded_with_its_number() -> None:
    """A form that numbers its fields anew in each section ("2. Title" in one, "3. Title" in the next):
    the number the line opens with says which is meant, though it reads as a list's numbering too."""
    fields = [
        ("field_2_title", "2. Title", "text"),
        ("field_3_signature_date", "3. Signature Date signed [date]", "text"),
        ("field_3_title", "3. Title", "text"),
        ("field_5_signature_date", "5. Signature Date signed [date]", "text"),
    ]
    instructions = "3. Title: Director\n5. Signature Date signed: 05/25/1987\n2. Title: Clerk"
    assert field_values(fields, instructions) == {
        "field_2_title": "Clerk",
        "field_3_title": "Director",
        "field_5_signature_date": "05/25/1987",
    }
    assert statements("1. First name: Jane")[0].label == "First name"


def test_a_long_label_with_colons_keeps_its_value_whole() -> None:
    """An official form's tooltip of several sentences, colons among them, before a short value: the
    last colon ends the label, however long the label."""
    label = (
        "Part A. III. 5. Provide the following information about your parents and siblings (brother and "
        "sister), listing each one's full name, city and country of birth and current location. Check the "
        "box if the person is deceased. (NOTE: Use Form I-589 Supplement B, or "
        "additional sheets of paper, if necessary.) Sibling 3. Enter City/Town and Country of Birth."
    )
    assert len(label) > 300
    (statement,) = statements(f"{label}: Portland 163")
    assert (statement.label, statement.value) == (label, "Portland 163")
    prose = "Please use what follows for the form, " * 9 + "as said: " + "word " * 20
    assert all(statement.label != prose.split(": ")[0] for statement in statements(prose))


def test_a_phrase_run_together_as_a_field_name_writes_it_names_its_concept() -> None:
    """Labels taken from field names ("signup_firstname", "zipcode", "dateofbirth") fill the fields a
    form prints in its own words ("Vorname", "Postleitzahl", "Geburtsdatum")."""
    fields = [
        ("a", "Vorname", "text"),
        ("b", "Nachname", "text"),
        ("c", "Postleitzahl", "text"),
        ("d", "Geburtsdatum", "text"),
    ]
    instructions = (
        "signup firstname: Jane\nsignup lastname: Roe\nsignup zipcode: 12345\nsignup dateofbirth: 1.1.1990"
    )
    assert field_values(fields, instructions) == {"a": "Jane", "b": "Roe", "c": "12345", "d": "1.1.1990"}


def test_a_signature_box_takes_no_value_but_a_signature_or_the_date_and_place_it_asks_for() -> None:
    """A statement that shares words with a signature box only through whose it is ("Employee ID",
    "Employee signature") does not write in it; "Date" goes to a box that asks for the date beside
    the signature, and a statement said to be the signature fills it."""
    fields = [
        ("signature", "Employee signature", "text"),
        ("signed", "Place, date, signature", "text"),
    ]
    assert field_values(fields, "Employee ID: 4711") == {}
    assert field_values(fields, "Employee name: Jane Roe") == {}
    assert field_values(fields, "Date: 01/02/2024") == {"signed": "01/02/2024"}
    assert field_values(fields, "Employee signature: /s/ Jane Roe") == {"signature": "/s/ Jane Roe"}


def test_the_date_of_signing_goes_to_the_date_box_not_to_the_signature_box() -> None:
    """ "Signature date", "Date of signature" and "Datum der Unterschrift" are the date signed: they fill
    the box printed "Dated" or "Date", and never the box where the person signs, even with no date box."""
    sign = ("sign", "(Signature of attorney or petitioner, if pro se)", "text")
    for label in ("Signature date", "Date of signature", "Datum der Unterschrift"):
        assert field_values([sign, ("date", "Date [date]", "text")], f"{label}: 01/25/1987") == {
            "date": "01/25/1987"
        }
        assert field_values([sign], f"{label}: 01/25/1987") == {}


def test_a_lawyer_is_an_attorney_and_an_alias_is_an_other_name_used() -> None:
    """The words forms use for one person or thing in several wordings: "Lawyer's name" is asked by
    "Attorney name", "Other names used by the defendant" by "Defendant's alias"."""
    fields = [
        ("lawyer", "Lawyer's name", "text"),
        ("aliases", "Other names used by the defendant, if any", "text"),
        ("defendant", "Defendant's name", "text"),
    ]
    instructions = "Attorney name: Jane Roe\nDefendant's alias: Johnny R.\nDefendant name: John Roe"
    assert field_values(fields, instructions) == {
        "lawyer": "Jane Roe",
        "aliases": "Johnny R.",
        "defendant": "John Roe",
    }


def test_a_signature_box_named_by_the_forms_own_key_takes_the_value_given_for_that_key() -> None:
    """A form whose widget for the signer's typed name is printed "Signature of petitioner" and named
    `users1_name`: the statement that names the key fills it."""
    fields = [("users1_name", "Signature of petitioner", "text"), ("users1_id", "Petitioner's ID", "text")]
    assert field_values(fields, "users1 name: Jane Roe") == {"users1_name": "Jane Roe"}
    assert "users1_name" not in field_values(fields, "Petitioner name: Jane Roe")


def test_a_label_written_with_a_pdf_names_hex_escapes_fills_the_field_printed_in_plain_letters() -> None:
    """An instruction that names a field as the file's field name spells it ("Imi#C4#99 i nazwisko",
    "Stra#C3#9Fe"): the escapes are read back, and the field printed "Imię i nazwisko" takes the value."""
    fields = [("name", "Imię i nazwisko", "text"), ("street", "Straße", "text"), ("city", "Miasto", "text")]
    instructions = "Imi#C4#99 i nazwisko: Anna Nowak\nStra#C3#9Fe: Hauptstraße 5"
    assert field_values(fields, instructions) == {"name": "Anna Nowak", "street": "Hauptstraße 5"}


def test_a_hash_and_digits_standing_apart_or_no_text_in_utf8_are_left_as_written() -> None:
    assert unescaped("Invoice No. #12") == "Invoice No. #12"
    assert unescaped("Colour#FF") == "Colour#FF"  # no UTF-8 text
    assert unescaped("First#20Name") == "First Name"


def test_a_field_named_as_the_label_wins_over_a_neighbour_described_so_when_described_apart() -> None:
    """A form whose captions stand under their lines: the detector describes the widget `address` by
    the caption above it ("Name (type or print)") and the widget `city` by "Address". The statement
    "Address" goes to the widget the form itself names so, and "City" to `city`."""
    fields = [
        ("name", "Signature of petitioner", "text"),
        ("address", "Name (type or print)", "text"),
        ("city", "Address", "text"),
        ("phone", "Phone", "text"),
    ]
    instructions = "Address: 19 Oak Street\ncity: Springfield\nphone: 555-0119"
    assert field_values(fields, instructions) == {
        "address": "19 Oak Street",
        "city": "Springfield",
        "phone": "555-0119",
    }


def test_a_description_worded_as_the_label_wins_over_a_key_that_agrees_with_its_description() -> None:
    """A key worded as the label yields to a field described so when the key's field is described in
    words of its own name (its description is then no neighbour's caption)."""
    fields = [("address", "Address of the employer", "text"), ("home", "Address", "text")]
    assert field_values(fields, "Address: 19 Oak Street") == {"home": "19 Oak Street"}


def test_a_description_in_words_of_its_own_key_keeps_the_label_from_a_key_described_apart() -> None:
    """A tooltip "Date:" on the widget `date_3` agrees with its own name: the statement "Date" goes
    there, not to a widget named `date` whose description was read off the page as other words."""
    fields = [("date", "Signature information", "text"), ("date_3", "Date:", "text")]
    assert field_values(fields, "Date: 10/02/1987") == {"date_3": "10/02/1987"}


def test_a_key_given_a_prefix_for_opening_with_a_digit_is_named_by_the_widget_name_it_came_from() -> None:
    fields = [
        ("field_066_page_0", "Persönliche Angaben des Mitglieds", "text"),
        ("field_067_page_0", "Name", "text"),
        ("field_068_page_0", "Vorname", "text"),
    ]
    values = field_values(fields, "066 page 0: Sample 1\n068_page_0: Sample 2")
    assert values == {"field_066_page_0": "Sample 1", "field_068_page_0": "Sample 2"}


def test_a_widget_name_opening_with_a_digit_names_its_own_field_only() -> None:
    fields = [
        ("field_066_page_0", "Persönliche Angaben", "text"),
        ("field_066_page_1", "Persönliche Angaben", "text"),
    ]
    assert field_values(fields, "066_page_1: Sample 1") == {"field_066_page_1": "Sample 1"}


def test_a_label_of_stop_words_only_fills_the_field_whose_description_prints_them() -> None:
    fields = [
        ("other_specify", "Other (Specify) [check if it applies]", "checkbox"),
        ("other_specify_2", "Other (Specify)", "text"),
        ("all_plaintiffs", "All Plaintiffs. [check if it applies]", "checkbox"),
        ("name", "Name", "text"),
    ]
    values = field_values(fields, "Other: the landlord\nName: Jane Roe")
    assert values == {"other_specify_2": "the landlord", "name": "Jane Roe"}
    assert field_values(fields, "Other: yes") == {"other_specify": "true"}


def test_a_label_of_stop_words_only_fills_nothing_whose_description_lacks_them() -> None:
    fields = [("name", "Name", "text"), ("remarks", "Remarks", "text")]
    assert field_values(fields, "Other: the landlord") == {}


def test_statements_naming_the_same_repeated_fields_equally_fill_them_in_the_forms_order() -> None:
    """A form asks "Given Name (First Name)" in three parts; the instructions follow the form, each
    line saying its part in words no field has. The first line's label, longer, names the fields a
    little less well than the others: still the first part's field is its, not the last one."""
    fields = [("family_name", "Family Name (Last Name)", "text")]
    fields += [(f"given_name_{part}", "Given Name (First Name)", "text") for part in (1, 2, 3)]
    instructions = (
        "Part 1. Information About The Person Filing This Request. 3. Enter Given Name (First Name): Ann\n"
        "Part 2. Petitioner in the Related Case. Enter Given Name (First Name): Bob\n"
        "Part 2. Beneficiary in the Related Case. Enter Given Name (First Name): Cid"
    )
    assert field_values(fields, instructions) == {
        "given_name_1": "Ann",
        "given_name_2": "Bob",
        "given_name_3": "Cid",
    }


def test_fields_asked_alike_keep_their_statements_when_more_statements_name_them_than_there_are() -> None:
    """Two fields described alike, three statements naming both about as well ("... because [1]",
    "[2]", "[3]", lines of one answer): the statements that won them stay, out of order or not, as
    the form's order cannot say which two of the three are meant."""
    from docsvc.intelligence import form_filling

    reason = "I request that the judge waive the age requirement because"
    described = form_filling.concepts(reason)
    targets = form_filling._Targets(
        [
            form_filling._Field(
                key, "text", described, reason.casefold(), form_filling.concepts(key.replace("_", " ")), key
            )
            for key in ("because", "because_2")
        ],
        [],
    )
    ranked = [(-0.9, 2, 0, "third"), (-0.9, 1, 1, "second"), (-0.88, 0, 0, "first"), (-0.88, 0, 1, "first")]
    ranked += [(-0.9, 2, 1, "third"), (-0.9, 1, 0, "second")]
    chosen, filler = {0: "third", 1: "second"}, {0: 2, 1: 1}
    form_filling._alike_in_order(targets, chosen, filler, sorted(ranked))
    assert chosen == {0: "third", 1: "second"}
    del ranked[2:4]  # no third statement: the two fill the fields in the form's order
    chosen, filler = {0: "third", 1: "second"}, {0: 2, 1: 1}
    form_filling._alike_in_order(targets, chosen, filler, sorted(ranked))
    assert chosen == {0: "second", 1: "third"}


@pytest.mark.parametrize(
    ("answer", "ticked"),
    [("kyllä", "true"), ("juo", "true"), ("예", "true"), ("ei", "false"), ("ii", "false"), ("nej", "false")],
)
def test_yes_and_no_in_finnish_northern_sami_swedish_and_korean_tick_a_box_or_leave_it(
    answer: str, ticked: str
) -> None:
    assert field_values(FIELDS, f"US citizen: {answer}") == {"us_citizen": ticked}

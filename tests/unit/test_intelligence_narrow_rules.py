"""Rules of the letter shape, the packet splitter, labels and form field names that must not match more
than they mean: a form's labels are no names, a number is no day, a journal's front is no return address,
a number sign is no name escape, a bracket of one word names no field."""

from docsvc.intelligence.classification import _RETURN_ADDRESS, dates_by_month, letter_parts
from docsvc.intelligence.form_filling import concepts, unescaped
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.splitting import proper_names


def test_a_forms_labels_ending_in_a_colon_are_no_proper_names() -> None:
    names = proper_names("First Name: ........ Last Name: ........\nPhone Number: ........")
    assert not names & {"first name", "last name", "phone number"}


def test_a_run_of_capitalised_words_ends_with_its_line() -> None:
    assert "amount please" not in proper_names("Total Amount\nPlease Sign Here")
    assert "freie maker" in proper_names("Die Freie Maker Werkstatt")


def test_only_a_day_some_months_lack_is_read_as_a_day_of_a_letters_date() -> None:
    assert not dates_by_month("Paris, 99 octobre 2018")
    assert not dates_by_month("Figure 3, 45 January 2020")
    assert dates_by_month("Berlin, 29. Februar 2011")


def test_a_journals_front_line_is_no_return_address() -> None:
    assert not _RETURN_ADDRESS.match("J. Smith | Physics Letters 12 | 2019 Elsevier")
    assert not _RETURN_ADDRESS.match("Proceedings of Foo, Volume 12, 2019 Springer")
    page = ["Proceedings of Foo, Volume 12, 2019 Springer", "Cambridge, 12 May 2019", "Abstract"]
    assert len(letter_parts([page])) < 2
    assert _RETURN_ADDRESS.match("Peter Musterfrau, Hinter dem Tal 2, 54321 Musterheim")


def test_a_number_sign_glued_to_figures_is_no_name_escape() -> None:
    assert unescaped("Apt#42") == "Apt#42"
    assert concepts("Code#30B") == concepts("Code #30B")
    assert unescaped("First#20Name") == "First Name"
    assert unescaped("Imi#C4#99 i nazwisko") == "Imię i nazwisko"


def test_a_bracket_of_one_word_after_an_unknown_label_names_no_field() -> None:
    assert label_key("Shipping (date)") != ("date",)
    assert label_key("Signature (date)") != ("date",)
    assert label_key("Contact (phone)") != ("phone",)
    assert label_key("Référence de la commande (n° facture)") == ("invoice", "number")

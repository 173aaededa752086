"""Comparing an imported text's case numbers with a plugin game's case index."""

from validator.cases import CaseNumber
from validator.games import IndexEntry
from validator.rulebook.importer import RulebookFile, import_texts
from validator.rulebook.overlap import Overlap, of_book


def numbers(*texts):
    return frozenset(CaseNumber.parse(text) for text in texts)


def overlap(text, index):
    return Overlap("pond", numbers(*text), numbers(*index))


INDEX = ("1", "1.1", "1.2", "2", "2.1", "2.2", "2.21", "3", "3.1", "3.2")


def test_the_text_cases_are_its_sections_and_cases_not_its_items():
    text = "1.0 ONE\n1.1 Scope\nA. First item\n1.2 More\n"
    book = import_texts("pond", [RulebookFile("pond.txt", text)])
    index = [IndexEntry(CaseNumber.parse("1.1"), "Scope"), IndexEntry(CaseNumber.parse("9"), "Nine")]
    found = of_book("pond", book, index)
    assert found.text_cases == numbers("1", "1.1", "1.2")
    assert found.known == numbers("1.1")
    assert found.missing == [CaseNumber.parse("9")]


def test_under_half_known_is_mostly_unknown_and_half_is_not():
    assert overlap(["1", "7", "8"], INDEX).mostly_unknown  # 1 of 3
    assert not overlap(["1", "1.1", "7", "8"], INDEX).mostly_unknown  # 2 of 4
    assert not overlap(INDEX, INDEX).mostly_unknown


def test_the_refusal_names_the_overlap_and_both_ways_on():
    refusal = overlap(["1", "7", "8"], INDEX).refusal()
    assert refusal == (
        "only 1 of the text's 3 case numbers is in the pond case index of 10 cases, so this does not look like "
        'the pond rulebook; import it as a game of its own (referee games add ID --title "TITLE", then referee '
        "rules import ID FILE...), or give --force to import it as pond anyway."
    )


def test_a_whole_text_has_no_notes():
    full = overlap(INDEX, INDEX)
    assert full.missing == [] and full.missing_note() == "" and full.forced_note() == ""


def test_a_partial_text_names_what_it_lacks_a_whole_missing_part_standing_for_its_cases():
    partial = overlap(["1", "1.1", "1.2", "2", "2.1", "3.1"], INDEX)  # lacks 2.2 with 2.21, 3 itself and 3.2
    assert partial.missing_parts() == ["2.2 (and the case under it)", "3", "3.2"]
    assert partial.missing_note() == (
        "Note: this text lacks 4 of the 10 cases of the pond case index: 2.2 (and the case under it), 3, 3.2."
    )
    assert partial.as_json() == {"text_cases": 6, "index_cases": 10, "known": 6, "missing": ["2.2", "2.21", "3", "3.2"]}


def test_a_forced_import_says_it_was_forced():
    forced = overlap(["1", "7", "8"], INDEX)
    assert forced.forced_note() == (
        "Note: only 1 of the text's 3 case numbers is in the pond case index of 10 cases; "
        "it was imported as pond because of --force."
    )

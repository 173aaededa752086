"""The shapes behind the pages, checked without HTML."""

from __future__ import annotations

from validator.cases import CaseNumber
from validator.rulebook.model import PARAGRAPH, Block, Reference
from validator.rules import RuleSet
from validator.web import reading

from .conftest import case, item_slot, orchard_rulebook, written

N = CaseNumber.parse


def _numbers(view) -> list[str]:
    return [str(shown.number) for shown in reading.walk(view)]


def test_items_are_placed_where_their_slot_stands_and_children_follow():
    book = orchard_rulebook()
    view = reading.case_view(book, N("2"), {}, RuleSet("alpha"))
    assert _numbers(view) == ["2", "2.1", "2.13", "2.13A", "2.13B", "2.2"]
    exceptions = view.children[0].children[0]
    assert [part.kind for part in exceptions.parts] == ["block", "item", "item", "block"]
    assert exceptions.children == []


def test_an_item_without_a_slot_follows_its_case_and_a_doubled_slot_draws_once():
    book = orchard_rulebook()
    exceptions = book.cases[N("2.13")]
    exceptions.blocks = [written(PARAGRAPH, "Text."), item_slot("2.13A"), item_slot("2.13A")]
    view = reading.case_view(book, N("2.13"), {}, RuleSet("alpha"))
    assert _numbers(view) == ["2.13", "2.13A", "2.13B"]
    assert [part.kind for part in view.parts] == ["block", "item", "block"]
    assert [str(child.number) for child in view.children] == ["2.13B"]


def test_consecutive_bullets_make_one_list():
    book = orchard_rulebook()
    view = reading.case_view(book, N("2"), {}, RuleSet("alpha"))
    assert [(part.kind, len(part.blocks)) for part in view.parts] == [
        ("block", 1),
        ("bullets", 2),
        ("block", 1),
        ("block", 1),
    ]


def test_a_reference_links_only_to_a_case_the_book_holds():
    book = orchard_rulebook()
    assert reading.is_linked(book, Reference(0, 3, N("2.2"), resolved=True))
    assert not reading.is_linked(book, Reference(0, 3, N("2.2"), resolved=False))
    assert not reading.is_linked(book, Reference(0, 3, N("2.7"), resolved=True))


def test_contents_put_a_case_with_a_missing_parent_at_the_top():
    book = orchard_rulebook()
    orphan = case("4.1", "Orphan", written(PARAGRAPH, "Alone."))
    book.cases[orphan.number] = orphan
    top = [str(entry.number) for entry in reading.book_contents(book, {})]
    assert top == ["1", "2", "3", "4.1"]


def test_index_contents_nest_under_the_nearest_listed_ancestor():
    index = {N("1"): "One", N("1.11"): "Deep", N("2"): "Two"}
    entries = reading.index_contents(index)
    nested = [(str(entry.number), [str(child.number) for child in entry.children]) for entry in entries]
    assert nested == [("1", ["1.11"]), ("2", [])]


def test_titles_prefer_the_book_and_mark_ours():
    index = {N("2.1"): "Ours"}
    assert reading.title_of(N("2.1"), "Printed", index) == reading.Title("Printed")
    assert reading.title_of(N("2.1"), "", index) == reading.Title("Ours", ours=True)
    assert reading.title_of(N("2.9"), "", index) == reading.Title("")


def test_nearest_entry_in_the_book_and_before_import():
    book = orchard_rulebook()
    assert str(reading.nearest_entry(N("2.19"), book, {}).number) == "2.1"
    assert reading.nearest_entry(N("9.9"), book, {}) is None
    index = {N("1"): "One", N("1.2"): "Two"}
    assert str(reading.nearest_entry(N("1.27"), None, index).number) == "1.2"
    assert reading.nearest_entry(N("5"), None, index) is None


def test_links_out_list_each_target_once_in_case_order():
    book = orchard_rulebook()
    references = [Reference(0, 3, N("2.2"), True), Reference(8, 11, N("3.4"))]
    extra = Block(PARAGRAPH, "2.2 and 3.4", references=references)
    book.cases[N("2.13B")].blocks.append(extra)
    view = reading.case_view(book, N("2.13"), {}, RuleSet("alpha"))
    targets = [(str(target.number), target.linked) for target in reading.links_out(book, view, {})]
    assert targets == [("2.13A", True), ("2.2", True), ("3.4", False)]


def test_unresolved_groups_citers_and_finds_the_nearest_case():
    found = reading.unresolved(orchard_rulebook())
    summary = [
        (str(entry.number), [str(citing.number) for citing in entry.cited_by], entry.nearest)
        for entry in found
    ]
    nearest_three = found[0].nearest
    assert summary == [("3.4", ["2.13A"], nearest_three), ("9.9", ["1.1"], None)]
    assert str(nearest_three.number) == "3"

"""Drafts for Tito and The Third World War on the real modules of ../shared/vassal-corpus/.

The corpus holds no Tito or Third World War module (its README lists the
games), so these drafts run on modules of other games: the test is that a
real module's names give nothing the game's vocabulary does not say (every
table entry is one of its words' values, every matched global property one
of its position attributes or facts), that every global property the module
declares is either matched or listed to fill in, and the spot checks below,
read by hand from the build files.  Skipped with the reason where the
corpus is absent, failing under CI (tests/vassal_corpus.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.games import get
from validator.saves.vassal.draft_state import POSITION_ATTRIBUTES, UNMATCHED_TABLE
from validator.saves.vassal.mapping import parse_mapping, read_mapping
from validator.saves.vassal.mapping_draft import draft_mapping
from validator.saves.vassal.module import read_module

from tests.vassal_corpus import corpus_file

MODULES = (("paths-of-glory", "buildFile.xml"), ("nevsky", "buildFile.xml"), ("inferno", "buildFile.xml"),
           ("for-the-people", "buildFile.xml"), ("flashpoint-south-china-sea", "buildFile.xml"),
           ("imperial-struggle", "buildFile.xml"), ("a3r-awaw", "buildFile-a3r.yml"))


def drafted(parts: tuple[str, str], game: str):
    module = read_module(corpus_file(*parts))
    game_map = read_mapping(get(game).default_mapping_path).map_path
    draft = draft_mapping(module, game, map_href=str(game_map), game_map=game_map, skeleton=None)
    return module, draft, parse_mapping(draft.xml, "draft.xml", Path.cwd())


@pytest.mark.parametrize("game", ["tito", "tww"])
@pytest.mark.parametrize("parts", MODULES, ids=[folder for folder, _ in MODULES])
def test_a_real_module_gives_only_the_games_own_words(parts, game):
    module, draft, mapping = drafted(parts, game)
    vocabulary = get(game).vocabulary
    for piece_words in (vocabulary.kind, *vocabulary.attributes):
        entries = mapping.tables[piece_words.table].entries
        assert set(entries.values()) <= set(piece_words.words.values())
        assert set(entries) == {c.name for c in draft.pieces if c.kind is not None and not c.missing}
    facts = vocabulary.facts.by_name
    for rule in mapping.state:
        if rule.position is None:
            assert rule.fact.partition(":")[0] in facts
        else:
            assert rule.position in POSITION_ATTRIBUTES
    matched = {item.property for item in draft.matched_state}
    unmatched = set(mapping.tables[UNMATCHED_TABLE].entries) if UNMATCHED_TABLE in mapping.tables else set()
    assert matched | unmatched == set(module.global_properties) and not matched & unmatched


def test_paths_of_glory_keeps_its_turn_and_its_victory_points_in_properties_named_so():
    _, draft, _ = drafted(("paths-of-glory", "buildFile.xml"), "tito")
    assert {(item.property, item.position or item.fact) for item in draft.matched_state} == {
        ("Turn", "turn"), ("VP", "victory-points")}


def test_an_a3r_minor_country_counter_is_read_by_name_and_folder():
    """``Iraq Inf 1-3`` sits in the folder ``Counters / Neutrals / Axis Minor Neutrals`` of the A3R module."""
    _, draft, mapping = drafted(("a3r-awaw", "buildFile-a3r.yml"), "tww")
    assert {name: (mapping.tables["unit-types"].entries[name], mapping.tables["nationalities"].entries[name],
                   mapping.tables["sides"].entries[name]) for name in mapping.tables["sides"].entries} == {
        "Iraq Inf 1-3": ("infantry", "iraq", "neutral"), "Iraq Air 1-4": ("air", "iraq", "neutral")}
    unsure = next(c for c in draft.pieces if c.name == "UK Inf 1-3")
    assert unsure.kind == "infantry" and unsure.missing, "Britain is no nation of chapter 15: left to fill in"

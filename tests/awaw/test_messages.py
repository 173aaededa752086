"""Messages an arbiter can check by hand: split counts that add up, builders named as builders, words that fit.

A partisan count over an a:b pool is split between two cases: the partisans
beyond the maximum b break 11.22 (or 11.23), and those between the automatic
a and b need production results under 44.36A or 44.37A.  Each message says
how it split the count and where the rest went, so the parts add back to the
partisans on the map.
"""

from __future__ import annotations

import re

import pytest

from validator import runner
from validator.saves.xml_reader import read_position_file

from plugin.awaw.situation import situation
from plugin.awaw.vocabulary import POWER_NAMES

from tests import game_fixtures

FIXTURES = game_fixtures.ROOT / "awaw"

SPLIT = "44.37/fail-ten-in-russia-two-results"


def results_of(path):
    return list(runner.iter_results(read_position_file(path)))


def by_case(name: str) -> dict[str, object]:
    return {str(result.case): result for result in results_of(FIXTURES / f"{name}.xml") if result.severity == "error"}


def test_the_russian_count_split_between_11_22c_and_44_37a_adds_back_to_ten():
    found = by_case(SPLIT)
    pool, results = found["11.22C"], found["44.37A"]
    on_map = pool.facts["count"]
    assert on_map == 10
    # 11.22C: 2 over the maximum of 8; of the other 8, 4 automatic and 4 sent to 44.37A.
    assert "the pool allows at most 8" in pool.message and "so 2 are over it" in pool.message
    assert (
        "of the other 8, 4 are automatic and 4 need one Russian partisan result each, counted under 44.37A"
        in pool.message
    )
    # 44.37A: the same 4, and the 2 it leaves to 11.22C.
    assert results.facts == {"above_automatic": 4, "results": 2}
    assert results.message.startswith(
        "4 communist partisans above the automatic levels need one Russian partisan result each, but there are only 2"
    )
    assert "Russia: 10 against 4:8, so 4 between the automatic 4 and the maximum 8" in results.message
    assert "the other 2 beyond the maximum are counted under 11.22C" in results.message
    over = pool.facts["count"] - pool.facts["maximum"]
    assert over + pool.facts["automatic"] + results.facts["above_automatic"] == on_map


def test_a_single_partisan_above_automatic_reads_in_the_singular():
    (message,) = [result.message for result in by_case("44.37/fail-five-in-russia-no-results").values()]
    assert message == (
        "1 communist partisan above the automatic levels needs a Russian partisan result, but there are "
        "none (Russia: 5 against 4:8, so 1 above the automatic 4)"
    )


def test_the_western_allied_split_names_11_22a_and_44_36a():
    message = by_case("11.22/fail-three-in-france")["11.22A"].message
    assert "the pool allows at most 2 (the table's 1:2 at its maximum), so 1 is over it" in message
    assert (
        "of the other 2, 1 is automatic and 1 needs a Western Allied partisan result, counted under 44.36A" in message
    )


def test_a_lowered_russian_pool_says_by_how_much_and_why():
    message = by_case("11.22/fail-russian-build-over-reduced-pool")["11.22C"].message
    assert "3 Russian occupation policies results lower it by 3 (44.32B), so 1 is over it" in message
    assert "of the other 5, 1 is automatic and 4 need" in message


POWERS = "|".join(re.escape(name) for name in POWER_NAMES.values())


@pytest.mark.parametrize(
    "path", [path for path in game_fixtures.fixture_paths(FIXTURES) if path.is_file()],
    ids=lambda path: f"{path.parent.name}/{path.stem}",
)
def test_a_partisans_builder_is_never_written_as_if_it_held_the_hex(path):
    position = read_position_file(path)
    partisans = {piece.id for piece in situation(position).partisans}
    for result in runner.iter_results(position):
        for partisan in partisans:
            assert not re.search(rf"\b{re.escape(partisan)} \(({POWERS})\)", result.message), result.message


def test_the_builder_reads_as_built_by():
    messages = [result.message for result in results_of(FIXTURES / "11.61/fail-ground-unit-joined-partisan.xml")]
    assert any("(built by " in message for message in messages), messages


def save_with(tmp_path, text: str):
    (tmp_path / "map.xml").write_bytes((FIXTURES / "map.xml").read_bytes())
    (tmp_path / "save.xml").write_text(text, encoding="utf-8")
    return read_position_file(tmp_path / "save.xml")


def brp_reason(position) -> str:
    (finding,) = [result for result in runner.iter_results(position) if "counted" in result.facts]
    return finding.message


def test_a_friendly_unit_in_the_partisans_own_hex_is_not_called_next_to_it(tmp_path):
    text = (FIXTURES / "legal-occupied-france.xml").read_text(encoding="utf-8")
    fighter = '    <piece id="gb1" name="British fighter" type="fighter" owner="britain" location="0202"/>\n  </pieces>'
    message = brp_reason(save_with(tmp_path, text.replace("  </pieces>", fighter)))
    assert message.endswith("costs no BRPs: the friendly unit gb1 is in its hex"), message
    assert "next to" not in message


def test_a_friendly_unit_in_a_hex_around_the_partisan_is_next_to_it(tmp_path):
    text = (FIXTURES / "legal-occupied-france.xml").read_text(encoding="utf-8")
    neighbour = situation(read_position_file(FIXTURES / "legal-occupied-france.xml")).hexes["0202"].neighbours[0]
    fighter = (
        f'    <piece id="gb1" name="British fighter" type="fighter" owner="britain" location="{neighbour}"/>\n'
        "  </pieces>"
    )
    message = brp_reason(save_with(tmp_path, text.replace("  </pieces>", fighter)))
    assert f"the friendly unit gb1 is next to it, in France / {neighbour}" in message, message


def test_one_brp_and_one_objective_are_singular():
    messages = [result.message for result in results_of(FIXTURES / "legal-occupied-france.xml")]
    assert "Germany loses 1 BRP to partisans (wa1), deducted at the end of Germany's combat phase (11.72)" in messages
    held = [result.message for result in results_of(FIXTURES / "11.63/fail-claim-counts-partisan-objective.xml")]
    assert any(message.startswith("1 objective held by partisans counts for nobody") for message in held), held

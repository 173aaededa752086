"""The work Tito's checks share (plugin/tito/stacks.py) gives what each check worked out alone, and stays read-only.

Checked on every shipped example and on the bench's generated position of
realistic size (every zone populated, the full counter mix).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

from validator import runner
from validator.rules import Finding, Violation
from validator.saves.xml_reader import read_position_file

from plugin.tito import stacks, units

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "tito").glob("*.xml"))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import tito_position
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return tito_position.write(tmp_path_factory.mktemp("tito"))


def positions(generated: Path):
    return [read_position_file(path) for path in [*EXAMPLES, generated]]


def test_the_division_total_is_the_sum_of_each_piece_s_division_equivalent(generated):
    for position in positions(generated):
        for stack in position.stacks().values():
            assert stacks.division_total(stack) == sum((units.division_equivalent(piece) for piece in stack),
                                                        Fraction(0))
    assert stacks.division_total(()) == 0


def test_the_shared_stacks_are_the_position_s_own_grouping_without_markers_where_placed(generated):
    for position in positions(generated):
        grouped = position.stacks()
        assert {location: list(pieces) for location, pieces in stacks.stacks(position).items()} == grouped
        expected = [(location, [piece for piece in pieces if not units.is_marker(piece)])
                    for location, pieces in grouped.items()]
        assert [(location, list(pieces)) for location, _, pieces in stacks.placed(position)] == [
            (location, pieces) for location, pieces in expected if pieces]
        assert all(position.map.locations[location] is place for location, place, _ in stacks.placed(position))


def test_the_shared_sides_are_each_piece_s_side_at_the_position_s_turn(generated):
    for position in positions(generated):
        turn = units.turn_number(position)
        assert dict(stacks.sides(position)) == {piece.id: units.side(piece, turn) for piece in position.pieces}


def test_a_check_cannot_change_what_another_reads(generated):
    position = read_position_file(generated)
    shared = stacks.stacks(position)
    location = next(iter(shared))
    with pytest.raises(TypeError):
        shared[location] = ()
    assert isinstance(shared[location], tuple)
    assert all(isinstance(pieces, tuple) for _, _, pieces in stacks.placed(position))
    assert stacks.stacks(position) is shared  # worked out once per position


def test_stamped_results_keep_every_field_a_check_gave_and_carry_the_runner_s_stamps(generated):
    report = runner.check(read_position_file(generated))
    assert report.results
    for result in report.results:
        assert isinstance(result, (Violation, Finding))
        assert result.rule == f"tito:{result.case}" and result.game == "tito" and result.judges == "position"
        assert result.check and result.severity and isinstance(result.pieces, tuple)


def test_a_stamp_of_a_field_a_result_does_not_have_is_refused():
    with pytest.raises(TypeError, match="no field colour"):
        Finding("a tally").stamped(colour="red")

"""The work Tito's checks share (plugin/tito/stacks.py) gives what each check worked out alone, and stays read-only.

Checked on every shipped example and on the bench's generated position of
realistic size (every zone populated, the full counter mix).
"""

from __future__ import annotations

import dataclasses
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from validator import runner
from validator.rules import Finding, Violation
from validator.saves.xml_reader import read_position_file

from plugin.tito import locations, stacks, units

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
    """The examples, the generated position, and the generated position with markers (every fifth piece, and all
    in the Neutral Chetnik boxes, which then hold markers only) and pieces off the map (every seventh), which no
    example has."""
    read = [read_position_file(path) for path in [*EXAMPLES, generated]]
    altered = tuple(
        piece._replace(type="marker") if number % 5 == 0 or piece.location.endswith("/neutral-chetnik")
        else piece._replace(location=None) if number % 7 == 0
        else piece
        for number, piece in enumerate(read[-1].pieces)
    )
    return [*read, dataclasses.replace(read[-1], pieces=altered)]


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
        assert [(stack.id, list(stack.pieces)) for stack in stacks.placed(position)] == [
            (location, pieces) for location, pieces in expected if pieces]
        assert all(position.map.locations[stack.id] is stack.location for stack in stacks.placed(position))
        assert dict(stacks.placed_at(position)) == {stack.id: stack for stack in stacks.placed(position)}
    assert any(all(units.is_marker(piece) for piece in pieces) for pieces in grouped.values())  # the last one's


def test_a_stack_s_kinds_present_are_its_pieces_kinds_each_once_in_order(generated):
    for position in positions(generated):
        for stack in stacks.placed(position):
            assert len(stack.kinds) == len(stack.pieces)
            assert list(stack.present) == list(dict.fromkeys(stack.kinds))


def test_a_check_cannot_change_what_another_reads(generated):
    position = read_position_file(generated)
    shared = stacks.stacks(position)
    location = next(iter(shared))
    with pytest.raises(TypeError):
        shared[location] = ()
    assert isinstance(shared[location], tuple)
    assert all(isinstance(stack.pieces, tuple) and isinstance(stack.kinds, tuple) for stack in stacks.placed(position))
    stack = stacks.placed(position)[0]
    with pytest.raises(AttributeError):
        stack.pieces = ()  # type: ignore[misc]
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


def test_the_shared_kinds_answer_as_the_units_helpers_do_for_each_piece(generated):
    for position in positions(generated):
        turn = units.turn_number(position)
        for stack in stacks.placed(position):
            for piece, kind in zip(stack.pieces, stack.kinds, strict=True):
                assert kind.nationality == piece.nationality and kind.side == units.side(piece, turn)
                assert kind.marker == units.is_marker(piece) and kind.guerrilla == units.is_guerrilla(piece)
                assert kind.axis_regular == units.is_axis_regular(piece, turn)
                assert kind.soviet_or_yugoslav_bulgarian == units.is_soviet_or_yugoslav_bulgarian(piece, turn)
                assert kind.pro_axis_chetnik == units.is_pro_axis_chetnik(piece)
                assert kind.neutral_chetnik == (piece.nationality == "chetnik" and units.allegiance(piece) == "neutral")
                with pytest.raises(AttributeError):
                    kind.side = "neutral"
        zone_at = stacks.location_zones(position)
        assert {piece.id: zone_at[piece.location] for piece in position.pieces} == {
            piece.id: units.zone_of(position, piece) for piece in position.pieces}
        assert stacks.axis_regulars(position) == tuple(
            piece for piece in position.pieces if units.is_axis_regular(piece, turn))
        assert stacks.guerrillas(position) == tuple(piece for piece in position.pieces if units.is_guerrilla(piece))
        with pytest.raises(TypeError):
            zone_at["c0"] = None  # type: ignore[index]


def test_the_generated_location_kinds_are_those_of_the_locations_the_map_gets(generated):
    for position in positions(generated):
        prepared = position.map
        kinds = locations.generated_kinds(prepared)
        assert {location_id: prepared.locations[location_id].kind for location_id in kinds} == kinds
        assert set(kinds) == set(prepared.locations)  # the shipped maps list zones and displays only


def test_pieces_alike_share_a_verdict_yet_each_wrong_piece_is_named_at_its_own_line(generated):
    from types import MappingProxyType

    from validator.facts import Context
    from validator.model import Piece, Position

    from plugin.tito import validation

    map_data = read_position_file(generated).map
    chetnik = MappingProxyType({"designation": "1"})
    pieces = (
        Piece("ok-1", "A", nationality="german", type="infantry", size="division", line=10,
              attributes=MappingProxyType({"designation": "704"})),
        Piece("bad-1", "B", side="yugoslav", nationality="german", type="infantry", size="division", line=11,
              attributes=MappingProxyType({"designation": "714"})),
        Piece("ok-2", "C", nationality="german", type="infantry", size="division", line=12,
              attributes=MappingProxyType({"designation": "717"})),
        Piece("bad-2", "D", side="yugoslav", nationality="german", type="infantry", size="division", line=13,
              attributes=MappingProxyType({"designation": "718"})),
        Piece("bad-3", "E", nationality="chetnik", type="guerrilla", size="group", line=14, attributes=chetnik),
        Piece("bad-4", "F", nationality="chetnik", type="guerrilla", size="group", line=15, attributes=chetnik),
        Piece("bad-5", "G", nationality="chetnik", type="guerrilla", size="group", line=16,
              attributes=MappingProxyType({"designation": "2", "colour": "red"})),
    )
    position = Position(game="tito", map=map_data, pieces=pieces, turn="5", phase="axis-combat")
    found = [problem for problem in validation.validate_position(position) if problem[0] >= 10]
    context = Context(map_data)
    alone = []
    for piece in pieces:  # each piece judged on its own, with nothing remembered
        fields = [(name, getattr(piece, name)) for name in validation.PIECE_FIELDS if getattr(piece, name)]
        problems = validation.PIECE.read(piece.attributes, context, *fields)[1] or list(
            validation._piece_rules(piece, 5))
        alone.extend((piece.line, f"the piece '{piece.id}' {problem}") for problem in problems)
    assert found == alone
    assert [line for line, _ in found] == [11, 13, 14, 15, 16]
    assert "colour" in found[-1][1]


def test_a_prepared_map_keeps_its_problems_so_a_process_that_loads_it_does_not_look_again(generated):
    from types import MappingProxyType

    from validator import prepared_maps
    from validator.facts import Context
    from validator.games import get

    from plugin.tito import validation

    map_data = read_position_file(generated).map
    for attributes in (map_data.attributes, MappingProxyType({**map_data.attributes, "game": "chess"})):
        prepared = locations.prepare_map(dataclasses.replace(map_data, attributes=attributes))
        found = tuple(validation._problems_of_map(prepared, Context(prepared)))
        assert prepared.derived["tito:map-problems"] == found  # found by the preparation, before any save asks
        data = f"a map whose game is {attributes['game']}".encode()
        assert prepared_maps.prepared(get("tito"), data, "kept.xml", lambda kept=prepared: kept) is prepared
        loaded = prepared_maps.prepared(get("tito"), data, "kept.xml", lambda: pytest.fail("prepared again"))
        assert loaded is not prepared and loaded.derived["tito:map-problems"] == found
    assert found and "chess" in found[0][1]

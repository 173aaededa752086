"""Replaying a VASSAL save: pieces, stacks and moves cost what they are, and stop at the limits."""

from __future__ import annotations

import zipfile

from tests.hostile import shapes
from tests.hostile.conftest import LINEAR_BOUND, WEB_PEAK_MB
from tests.hostile.cost import growth, measure

ROOMY = {"stack_members": 1_000_000}
"""Limits that let a stack grow, so that the cost of a large one can be compared with a small one."""


def test_many_pieces_are_the_add_pieces_piece_command_writes(tmp_path):
    pieces = [shapes.piece_command(f"p{index}", x=index) for index in range(300)]
    with zipfile.ZipFile(shapes.many_pieces(tmp_path / "many.vsav", 300)) as archive:
        assert archive.read("savedGame") == shapes.voxz(shapes.restore(*pieces))


def test_a_million_add_pieces_are_refused_at_the_pieces_limit(tmp_path):
    path = shapes.many_pieces(tmp_path / "million.vsav", 1_000_000)
    assert path.stat().st_size < 2_000_000
    cost = measure("vassal_save", path)
    assert cost.refused and "it adds 100,001 pieces, stacks and decks, more than the pieces limit of 100,000" \
        in cost.refused
    assert cost.peak_mb < WEB_PEAK_MB


def test_a_stack_listing_more_pieces_than_the_limit_is_refused(tmp_path):
    cost = measure("vassal_save", shapes.wide_stack(tmp_path / "wide.vsav", 30_000))
    assert cost.refused and "the stack s0 lists 30,000 pieces, more than the stack_members limit of 20,000" \
        in cost.refused


def test_a_stack_listing_many_pieces_costs_their_number(tmp_path):
    ratio, small, large = growth("vassal_save", shapes.wide_stack, tmp_path, 2_500, limits=ROOMY)
    assert large.summary == "20000 pieces, 1 stacks"
    assert ratio < LINEAR_BOUND, (small, large)


def test_moves_onto_one_point_cost_their_number(tmp_path):
    # Each move used to take the piece out of the list and put it back at the bottom, both linear.
    ratio, small, large = growth("vassal_save", shapes.moves_to_one_point, tmp_path, 2_500, limits=ROOMY)
    assert large.summary == "20000 pieces, 1 stacks"
    assert ratio < LINEAR_BOUND, (small, large)


def test_moves_that_overfill_a_stack_are_refused(tmp_path):
    cost = measure("vassal_save", shapes.moves_to_one_point(tmp_path / "full.vsav", 25_000))
    assert cost.refused and "hold 20,001 pieces, more than the stack_members limit of 20,000" in cost.refused


def test_restating_a_large_stack_costs_its_size(tmp_path):
    ratio, small, large = growth("vassal_save", shapes.restacked, tmp_path, 1_000, limits=ROOMY)
    assert large.summary == "8000 pieces, 1 stacks"
    assert ratio < LINEAR_BOUND, (small, large)


def test_moves_onto_a_point_full_of_empty_stacks_cost_their_number(tmp_path):
    ratio, small, large = growth("vassal_save", shapes.empty_stacks_at_one_point, tmp_path, 2_500, limits=ROOMY)
    assert large.summary == "20000 pieces, 1 stacks"
    assert ratio < LINEAR_BOUND, (small, large)


def test_a_deep_trait_chain_costs_its_length(tmp_path):
    # Every trait nests one level deeper, so the chain's text grows with the square of its traits;
    # splitting it level by level cost the cube.
    ratio, small, large = growth("vassal_save", shapes.deep_traits, tmp_path, 200)
    assert small.summary == large.summary == "1 pieces, 0 stacks"
    assert ratio < LINEAR_BOUND * 8, (small, large)    # the text itself grows 64 times


def test_a_chain_past_the_traits_limit_is_refused(tmp_path):
    cost = measure("vassal_save", shapes.deep_traits(tmp_path / "deep.vsav", 2_500))
    assert cost.refused and "piece deep: its trait chain holds more than 2,000 traits, the traits limit" in cost.refused


def test_a_marker_with_millions_of_keys_is_refused_before_they_are_split(tmp_path):
    cost = measure("vassal_save", shapes.long_marker_list(tmp_path / "marker.vsav", 3_000_000))
    assert cost.refused and ("piece listed holds a list of 3,000,000 items, more than the list_items limit of "
                             "100,000") in cost.refused
    assert cost.peak_mb < WEB_PEAK_MB


def test_a_board_picker_with_millions_of_boards_is_refused_before_they_are_split(tmp_path):
    cost = measure("vassal_save", shapes.long_board_list(tmp_path / "boards.vsav", 1_000_000))
    assert cost.refused and ("a command holds a list of 3,000,001 items, more than the list_items limit of "
                             "100,000") in cost.refused
    assert cost.peak_mb < WEB_PEAK_MB


def test_a_roster_of_a_million_players_is_refused_at_the_list_limit(tmp_path):
    cost = measure("vassal_save", shapes.many_players(tmp_path / "players.vsav", 1_000_000))
    assert cost.refused and "its commands set 100,001 players, more than the list_items limit of 100,000" \
        in cost.refused
    assert cost.peak_mb < WEB_PEAK_MB

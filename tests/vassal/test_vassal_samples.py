"""The reader against real files players exchanged (read from the shared samples folder)."""

from __future__ import annotations

import re

import pytest

from validator.saves.vassal import location_of, read_log, read_module, read_saved_game

SAVES = ["kassala/Default Setup.vsav", "almoravid/Scenario_A_Toledo_Beset.vsav", "zxvt/5x5_startup.vlog"]
MODULES = ["kassala/buildFile.xml", "almoravid/buildFile.xml", "zxvt/buildFile", "vive-lempereur/buildFile.xml"]


@pytest.mark.parametrize("name", SAVES)
def test_every_sample_save_decodes(samples, name):
    game = read_saved_game(samples / name)
    assert game.format == "VCSK"
    assert game.pieces
    assert all(piece.traits[-1].id == "piece;" for piece in game.pieces)
    assert game.boards


@pytest.mark.parametrize("name", MODULES)
def test_every_sample_module_decodes(samples, name):
    module = read_module(samples / name)
    assert module.maps
    assert any(definition.boards for definition in module.maps.values())


def test_kassala_pieces_all_sit_on_main_map_in_their_stacks(samples):
    game = read_saved_game(samples / "kassala" / "Default Setup.vsav")
    assert len(game.pieces) == 23
    assert len(game.stacks) == 21
    assert {piece.map for piece in game.pieces} == {"Main Map"}
    stacks = {stack.id: stack for stack in game.stacks}
    for piece in game.pieces:
        stack = stacks[piece.stack_id]
        assert (piece.x, piece.y) == (stack.x, stack.y)
        assert piece.id in stack.piece_ids
    assert game.piece("1648473853373").name == "Moslem_Infantry_3-2_Nubian"
    assert game.piece("1648473853373").image == "Moslem_Infantry_3-2_Nubian.png"
    assert game.metadata.vassal_version == "3.6.5"
    assert game.module_metadata.name == "Kassala"


def test_kassala_hex_grid_without_numbering_names_everything_offboard(samples):
    module = read_module(samples / "kassala" / "buildFile.xml")
    game = read_saved_game(samples / "kassala" / "Default Setup.vsav")
    assert {location_of(module, p.map, p.x, p.y, game.boards) for p in game.pieces} == {"offboard"}


def test_almoravid_setup_stack_locations_are_reproduced(samples):
    module = read_module(samples / "almoravid" / "buildFile.xml")
    oracle = [s for s in module.maps["Main Map"].setup_stacks if s.use_grid_location]
    assert len(oracle) == 85
    wrong = [(s.name, s.location, location_of(module, "Main Map", s.x, s.y)) for s in oracle
             if location_of(module, "Main Map", s.x, s.y) != s.location]
    assert wrong == []
    assert len({s.location for s in oracle}) > 40


def test_almoravid_decks_properties_and_layers(samples):
    game = read_saved_game(samples / "almoravid" / "Scenario_A_Toledo_Beset.vsav")
    assert len(game.global_properties) == 190
    assert game.global_properties["ChristianVPColor"] == '<span style="color:#E4BC2F;">'
    assert game.global_properties["PlopMap"] == "Main Map"
    decks = {deck.name: deck for deck in game.decks}
    assert len(decks["Christian Arts of War"].piece_ids) == 24
    by_id = {piece.id: piece for piece in game.pieces}
    for deck in game.decks:
        for piece_id in deck.piece_ids:
            assert by_id[piece_id].deck_id == deck.id
            assert (by_id[piece_id].map, by_id[piece_id].x, by_id[piece_id].y) == (deck.map, deck.x, deck.y)
    assert any(stack.layer is not None for stack in game.stacks)
    assert any(piece.layers for piece in game.pieces)
    assert any(piece.properties.get("Side") == "Muslim" for piece in game.pieces)
    assert {board.map for board in game.boards} >= {"Main Map", "Christian Hand"}
    assert game.metadata is None


def test_zxvt_log_steps_match_the_chat_square_names(samples):
    log = read_log(samples / "zxvt" / "5x5_startup.vlog")
    module = read_module(samples / "zxvt" / "buildFile")
    assert len(log.steps) == 6
    assert len(log.initial.pieces) == 0
    checked = 0
    seen: set[str] = set()
    for step, position in log.positions():
        (chat,) = step.chat
        match = re.fullmatch(r"\* (.+) created in (\w+)", chat)
        created = [p for p in position.pieces if p.id not in seen]
        seen.update(p.id for p in position.pieces)
        assert len(created) == 1
        piece = created[0]
        assert piece.name == match.group(1)
        assert location_of(module, piece.map, piece.x, piece.y, position.boards) == match.group(2)
        checked += 1
    assert checked == 6
    final = log.final
    assert {p.name for p in final.pieces} == {"Captured by Red", "Captured by Gray", "Town", "Red", "Gray"}
    red = next(p for p in final.pieces if p.name == "Red")
    assert red.stack_id == "1571600969837"
    assert log.metadata.description == "5x5 2 Player Startup"

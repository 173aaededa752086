"""The dump of a save or log: its JSON contract, its text listing and fog of war."""

from __future__ import annotations

import json
import re

import pytest

from validator.saves.vassal import read_log, read_module, read_saved_game
from validator.saves.vassal.dump import DUMP_VERSION, dump_file, dump_game, dump_log, render_json, render_text

from vassal_save_writer import add_piece, chain, command, restore, write_save

PIECE_KEYS = {"id", "name", "basic_name", "image", "map", "x", "y", "location", "stack", "deck", "masked", "hidden",
              "obscured", "properties"}
TOP_KEYS = {"dump_version", "source", "format", "viewer", "arbiter", "metadata", "boards", "players",
            "global_properties", "map_properties", "stacks", "decks", "pieces"}
ROSTER = ("PLAYER\tpw-anna\tAnna\tAxis", "PLAYER\tpw-bert\tBert\tAllies", "PLAYER\tpw-carl\tCarl\tItaly")
MASK = "obs;77,130;back.png;Mask;G;Hidden unit"


def _masked(piece_id, name, owner, access="", x=100, y=100):
    mask_type = MASK + (";" + access if access else "")
    return add_piece(piece_id, ["mark;Side,Strength", mask_type, f"piece;;;{name}.png;{name}"],
                     [f"Secret,{piece_id}", owner + ";" if owner != "null" else "null;", f"Main Map;{x};{y};;0"])


def _hidden(piece_id, name, owner, access="", x=300, y=300):
    hide_type = "hide;73,130;Hide;;" + access
    return add_piece(piece_id, ["mark;Side", hide_type, f"piece;;;{name}.png;{name}"],
                     ["Allies", owner, f"Main Map;{x};{y};;0"])


def _fog_save(tmp_path):
    pieces = [
        _masked("1", "Panzer", "pw-anna"),                       # masked by Anna (Axis), player access
        _hidden("2", "Commando", "pw-bert"),                     # invisible, hidden by Bert (Allies)
        _masked("3", "Alpini", "Axis", "side:", x=200),          # side access: the owner recorded is the side
        _masked("4", "Bersaglieri", "Axis", "sides:Axis:Italy", x=250),
        _masked("5", "Ghost", "pw-nobody", x=260),               # engaged by a player no longer in the roster
        _masked("6", "Open", "null", x=270),                     # a Mask trait that is not engaged
        "+/9/stack/Main Map;300;300;2;@@-1",
    ]
    text = restore(*pieces, components=ROSTER + ("Main MapBoardPicker\tNorth\t0\t0",))
    return write_save(tmp_path / "fog.vsav", text)


def _by_id(data):
    return {entry["id"]: entry for entry in data["pieces"]}


def test_contract_keys_and_json_round_trip(tmp_path):
    data = dump_game(read_saved_game(_fog_save(tmp_path)), viewer="Axis")
    assert TOP_KEYS <= set(data)
    assert data["dump_version"] == DUMP_VERSION and data["format"] == "VCSK" and data["source"] == "fog.vsav"
    for entry in data["pieces"]:
        assert set(entry) == PIECE_KEYS
        assert all(isinstance(key, str) and isinstance(value, str) for key, value in entry["properties"].items())
        assert entry["location"] is None                         # no module given
    assert json.loads(render_json(data)) == data
    assert data["players"] == [{"side": "Axis"}, {"side": "Allies"}, {"side": "Italy"}]  # names are withheld
    assert "pw-" not in render_json(data)                         # secret player ids never leave the reader


def test_the_masking_player_sees_the_real_piece(tmp_path):
    pieces = _by_id(dump_game(read_saved_game(_fog_save(tmp_path)), viewer="Axis"))
    panzer = pieces["1"]
    assert (panzer["name"], panzer["masked"], panzer["obscured"]) == ("Panzer", True, False)
    assert panzer["properties"] == {"Side": "Secret", "Strength": "1"}
    assert pieces["3"]["name"] == "Alpini" and pieces["4"]["name"] == "Bersaglieri"
    assert pieces["6"]["name"] == "Open" and not pieces["6"]["masked"]


def test_other_sides_see_only_the_mask(tmp_path):
    pieces = _by_id(dump_game(read_saved_game(_fog_save(tmp_path)), viewer="Allies"))
    panzer = pieces["1"]
    assert (panzer["name"], panzer["basic_name"], panzer["image"]) == ("Hidden unit", None, None)
    assert panzer["properties"] == {} and panzer["obscured"] and panzer["masked"]
    assert (panzer["map"], panzer["x"], panzer["y"]) == ("Main Map", 100, 100)    # where it is stays public
    assert pieces["3"]["obscured"] and pieces["4"]["obscured"] and pieces["5"]["obscured"]
    assert "Panzer" not in render_json(dump_game(read_saved_game(_fog_save(tmp_path)), viewer="Allies"))


def test_listed_sides_see_through_a_sides_mask(tmp_path):
    pieces = _by_id(dump_game(read_saved_game(_fog_save(tmp_path)), viewer="Italy"))
    assert pieces["4"]["name"] == "Bersaglieri" and not pieces["4"]["obscured"]
    assert pieces["3"]["obscured"] and pieces["1"]["obscured"]


def test_invisible_pieces_are_left_out_for_others(tmp_path):
    game = read_saved_game(_fog_save(tmp_path))
    for viewer in ("Axis", None):
        data = dump_game(game, viewer=viewer)
        assert "2" not in _by_id(data)
        assert all("2" not in stack["pieces"] for stack in data["stacks"])
        assert "Commando" not in render_json(data)
    owner = _by_id(dump_game(game, viewer="Allies"))["2"]
    assert (owner["name"], owner["hidden"], owner["stack"]) == ("Commando", True, "9")


def test_a_spectator_sees_through_nothing(tmp_path):
    pieces = _by_id(dump_game(read_saved_game(_fog_save(tmp_path))))
    assert {piece_id for piece_id, entry in pieces.items() if entry["obscured"]} == {"1", "3", "4", "5"}
    assert set(pieces) == {"1", "3", "4", "5", "6"}


def test_the_arbiter_sees_everything_with_flags(tmp_path):
    data = dump_game(read_saved_game(_fog_save(tmp_path)), arbiter=True)
    pieces = _by_id(data)
    assert set(pieces) == {"1", "2", "3", "4", "5", "6"}
    assert not any(entry["obscured"] for entry in pieces.values())
    assert (pieces["1"]["name"], pieces["1"]["mask_owner_side"], pieces["1"]["mask_name"]) == (
        "Panzer", "Axis", "Hidden unit")
    assert (pieces["2"]["hidden"], pieces["2"]["hidden_by_side"]) == (True, "Allies")
    assert pieces["5"]["mask_owner_side"] is None                # the id is not in the roster
    assert data["arbiter"] is True


def test_face_down_decks_are_obscured_to_players(tmp_path):
    card = add_piece("21", ["mark;Suit", "piece;;;ace.png;Ace"], ["Spades", "null;0;0;;0"])
    deck = "+/20/" + "deck;" + ";" * 12 + "Draw/Main Map;40;40;true;21"
    path = write_save(tmp_path / "deck.vsav", restore(card, deck))
    game = read_saved_game(path)
    player = _by_id(dump_game(game, viewer="Axis"))["21"]
    assert (player["name"], player["obscured"], player["deck"], player["properties"]) == ("?", True, "20", {})
    assert _by_id(dump_game(game, arbiter=True))["21"]["name"] == "Ace"
    assert dump_game(game, viewer="Axis")["decks"] == [
        {"id": "20", "name": "Draw", "map": "Main Map", "x": 40, "y": 40, "face_down": True, "pieces": ["21"]}]


def test_text_listing_one_line_per_piece(tmp_path):
    text = render_text(dump_game(read_saved_game(_fog_save(tmp_path)), viewer="Allies"))
    header, *lines = text.splitlines()
    assert header == "fog.vsav: VCSK save, 6 pieces shown to side Allies"
    assert len(lines) == 6
    assert "Main Map | (100,100) | Hidden unit [obscured, masked]" in lines
    assert "Main Map | (300,300) | Commando [hidden] | Side=Allies" in lines


def _fog_log(tmp_path):
    steps = [
        command("LOG\tM/2/Main Map/400/400/null/Main Map/300/300/null/pw-bert"),    # the invisible piece moves
        command("LOG\tD/1/" + chain("Secret,7", "pw-anna;", "Main Map;100;100;;0")),    # a masked piece changes inside
        command("LOG\tD/2/" + chain("Allies", "null", "Main Map;400;400;;0"),           # it becomes visible
                "LOG\tCHAT* Commando revealed"),
        command("LOG\tM/1/Main Map/150/150/null/Main Map/100/100/null/pw-anna"),
        command("LOG\t-/6"),
    ]
    pieces = [_masked("1", "Panzer", "pw-anna"), _hidden("2", "Commando", "pw-bert"), _masked("6", "Open", "null")]
    text = command(restore(*pieces, components=ROSTER), *steps)
    return write_save(tmp_path / "fog.vlog", text, "VOBS")


def _changes(step):
    changes = step["changes"]
    return ([entry["id"] for entry in changes["added"]], [entry["id"] for entry in changes["changed"]],
            changes["removed"])


def test_log_steps_show_only_visible_changes(tmp_path):
    data = dump_log(read_log(_fog_log(tmp_path)), viewer="Axis")
    assert data["position"] == "initial" and set(_by_id(data)) == {"1", "6"}
    steps = data["steps"]
    assert [step["index"] for step in steps] == [1, 2, 3, 4, 5]
    assert _changes(steps[0]) == ([], [], [])                         # Axis does not see Commando move
    assert _changes(steps[1]) == ([], ["1"], [])                      # Anna owns the mask: she sees the change
    assert _changes(steps[2]) == (["2"], [], [])                      # revealed: it appears for Axis
    assert steps[2]["chat"] == ["* Commando revealed"]
    assert steps[2]["changes"]["added"][0]["name"] == "Commando"
    assert _changes(steps[3]) == ([], ["1"], [])
    assert (steps[3]["changes"]["changed"][0]["x"], steps[3]["changes"]["changed"][0]["y"]) == (150, 150)
    assert _changes(steps[4]) == ([], [], ["6"])


def test_log_steps_for_the_other_side(tmp_path):
    steps = dump_log(read_log(_fog_log(tmp_path)), viewer="Allies")["steps"]
    assert _changes(steps[0]) == ([], ["2"], [])                      # Bert sees his own invisible piece move
    assert _changes(steps[1]) == ([], [], [])                         # the masked piece looks the same to Allies
    assert _changes(steps[2]) == ([], ["2"], [])                      # no longer hidden: a change, not an addition
    assert steps[3]["changes"]["changed"][0]["name"] == "Hidden unit"


def test_log_dump_renders_and_round_trips(tmp_path):
    data = dump_file(_fog_log(tmp_path), steps=True, arbiter=True)
    assert json.loads(render_json(data)) == data
    text = render_text(data)
    assert "step 3: 0 added, 1 changed, 0 removed" in text
    assert "  chat: * Commando revealed" in text
    final = dump_file(_fog_log(tmp_path), arbiter=True)
    assert final["position"] == "final" and "steps" not in final
    assert (_by_id(final)["1"]["x"], _by_id(final)["2"]["hidden"]) == (150, False)


def test_kassala_with_its_module(samples):
    data = dump_file(samples / "kassala" / "Default Setup.vsav", samples / "kassala" / "buildFile.xml")
    assert len(data["pieces"]) == 23
    assert {entry["map"] for entry in data["pieces"]} == {"Main Map"}
    assert {entry["location"] for entry in data["pieces"]} == {"offboard"}   # its HexGrid has no numbering
    nubian = _by_id(data)["1648473853373"]
    assert nubian["name"] == "Moslem_Infantry_3-2_Nubian" and nubian["stack"] is not None
    assert data["metadata"]["save"]["vassal_version"] == "3.6.5"
    assert data["metadata"]["module"]["name"] == "Kassala"
    assert len(render_text(data).splitlines()) == 24


def test_zxvt_steps_locations_match_the_chat(samples):
    module = read_module(samples / "zxvt" / "buildFile")
    data = dump_log(read_log(samples / "zxvt" / "5x5_startup.vlog"), module)
    assert len(data["steps"]) == 6
    for step in data["steps"]:
        (chat,) = step["chat"]
        name, square = re.fullmatch(r"\* (.+) created in (\w+)", chat).groups()
        (added,) = step["changes"]["added"]
        assert (added["name"], added["location"]) == (name, square)


@pytest.mark.parametrize("name", ["kassala/Default Setup.vsav", "almoravid/Scenario_A_Toledo_Beset.vsav",
                                  "zxvt/5x5_startup.vlog"])
def test_every_sample_dumps_as_json(samples, name):
    for arbiter in (False, True):
        data = dump_file(samples / name, arbiter=arbiter)
        assert data["pieces"] and json.loads(render_json(data)) == data
        assert render_text(data).count("\n") == len(data["pieces"]) + 1


def test_almoravid_face_down_decks_hide_their_cards(samples):
    path = samples / "almoravid" / "Scenario_A_Toledo_Beset.vsav"
    game = read_saved_game(path)
    face_down = {deck.id for deck in game.decks if deck.face_down}
    assert face_down
    player = dump_game(game, viewer="Muslim")
    in_decks = [entry for entry in player["pieces"] if entry["deck"] in face_down]
    assert in_decks and all(entry["obscured"] and entry["properties"] == {} for entry in in_decks)
    arbiter = dump_game(game, arbiter=True)
    assert not any(entry["obscured"] for entry in arbiter["pieces"])

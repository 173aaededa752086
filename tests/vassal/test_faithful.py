"""The VASSAL reader does what VASSAL does, on small saves written the way VASSAL writes them.

Each behaviour cites the Java it follows (VASSAL's ``BasicPiece.setState``,
``Map.getMapById``, ``Decorator.mergeState``, ``Stack.mergeState``,
``BasicCommandEncoder.createPiece``); docs/vassal-dump.md says the same.
"""

from __future__ import annotations

from validator.saves.vassal.dump import dump_file
from validator.saves.vassal.reader import read_final_state, read_log, read_saved_game
from validator.saves.vassal.sequence import encode

from sample_modules import build_file, map_element, piece, write_game, write_module
from vassal_save_writer import add_piece, chain


def _module(folder, *maps: str):
    elements = [map_element(name, "Board", "", 1000, 1000) for name in maps]
    return write_module(folder / "test.vmod", build_file("Test", "1.0", *elements), "Test", "1.0")


def _logged(*commands: str) -> str:
    return encode(["LOG\t" + text for text in commands], "\x1b")


def test_a_piece_on_a_map_the_module_does_not_define_is_on_no_map(tmp_path):
    save = write_game(tmp_path / "game.vsav", [piece("1", "Known", "Main", 10, 20, {}),
                                               piece("2", "Stray", "Gone Map", 30, 40, {})], {}, [])
    data = dump_file(save, _module(tmp_path, "Main"))
    where = {entry["name"]: (entry["map"], entry["location"], entry["x"], entry["y"]) for entry in data["pieces"]}
    assert where["Stray"] == (None, None, 30, 40)     # BasicPiece.setState keeps the point, getMapById gives null
    assert where["Known"][0] == "Main" and where["Known"][1] is not None
    # Without a module nothing says which maps exist, so the file's map name stays.
    assert {entry["name"]: entry["map"] for entry in dump_file(save)["pieces"]}["Stray"] == "Gone Map"


def test_a_stack_on_an_undefined_map_and_its_pieces_are_on_no_map(tmp_path):
    stack = encode(["+", "s1", "stack", "Gone Map;5;6;1;2"], "/")
    save = write_game(tmp_path / "game.vsav", [piece("1", "A", "Gone Map", 5, 6, {}),
                                               piece("2", "B", "Gone Map", 5, 6, {}), stack], {}, [])
    data = dump_file(save, _module(tmp_path, "Main"))
    assert {(entry["map"], entry["stack"]) for entry in data["pieces"]} == {(None, "s1")}
    assert data["stacks"] == [{"id": "s1", "map": None, "x": 5, "y": 6, "pieces": ["1", "2"]}]


def _unit(state_strength: str, level: str, x: int) -> str:
    return chain(state_strength, level, f"Main;{x};10;;0")


UNIT_TYPE = chain("mark;Strength", "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png;Up,Down;true;Step", "piece;;;u.png;Unit")


def test_a_change_with_an_old_state_changes_only_the_traits_it_changed(tmp_path):
    start = add_piece("7", ["mark;Strength", "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png;Up,Down;true;Step",
                            "piece;;;u.png;Unit"], ["4", "1", "Main;100;10;;0"])
    # First change: flipped to level 2, logged with the piece's true old state.
    flip = encode(["D", "7", _unit("4", "2", 100), _unit("4", "1", 100)], "/")
    # Second change, made on a copy that had not seen the flip: it lowers the strength and says the old
    # level was 1.  Decorator.mergeState sets only the traits whose old and new states differ, so the
    # Layer keeps level 2 and only the Marker changes.
    weaken = encode(["D", "7", _unit("3", "1", 100), _unit("4", "1", 100)], "/")
    log = write_game(tmp_path / "game.vlog", [start], {}, [], steps=(_logged(flip), _logged(weaken)))
    piece_now = read_saved_game(log).piece("7")
    assert piece_now.properties["Strength"] == "3"
    assert piece_now.properties["Step_Level"] == "2" and piece_now.name == "Down"
    # Without an old state the new state is taken whole (ChangePiece's setState).
    whole = encode(["D", "7", _unit("3", "1", 100)], "/")
    log = write_game(tmp_path / "whole.vlog", [start], {}, [], steps=(_logged(flip), _logged(whole)))
    assert read_saved_game(log).piece("7").properties["Step_Level"] == "1"


def test_a_stack_change_with_an_old_state_keeps_pieces_neither_state_names(tmp_path):
    pieces = [piece(str(n), f"U{n}", "Main", 50, 50, {}) for n in (1, 2, 3)]
    stack = encode(["+", "s", "stack", "Main;50;50;1;2;3"], "/")
    # Logged as if the stack held 1 and 2 and now holds 2 and 1; piece 3, which the change never saw,
    # goes just above the piece below it now (2) where the new order lists that one (Stack.mergeState).
    reorder = encode(["D", "s", "Main;50;50;2;1", "Main;50;50;1;2"], "/")
    log = write_game(tmp_path / "game.vlog", [*pieces, stack], {}, [], steps=(_logged(reorder),))
    assert read_saved_game(log).stacks[0].piece_ids == ("2", "3", "1")
    # Without an old state the listed order is taken whole: piece 3 leaves the stack.
    whole = encode(["D", "s", "Main;50;50;2;1"], "/")
    log = write_game(tmp_path / "whole.vlog", [*pieces, stack], {}, [], steps=(_logged(whole),))
    assert read_log(log).final.stacks[0].piece_ids == ("2", "1")


def test_an_add_piece_vassal_would_not_create_adds_nothing_and_is_noted(tmp_path):
    unknown = encode(["+", "9", "counter;;;x.png;Odd", "Main;1;1;;0"], "/")    # createBasic: no factory, null
    empty = encode(["+", "10", "", "Main;1;1;;0"], "/")
    decorated = add_piece("11", ["custom.Trait;x", "piece;;;y.png;Kept"], ["", "Main;2;2;;0"])   # a Marker
    save = write_game(tmp_path / "game.vsav", [unknown, empty, decorated, piece("1", "Plain", "Main", 3, 3, {})],
                      {}, [])
    data = dump_file(save)
    assert sorted(entry["id"] for entry in data["pieces"]) == ["1", "11"]
    (note,) = [note for note in data["notes"] if note["kind"] == "not_created"]
    assert note["count"] == 2 and "'counter;'" in note["message"] and "an empty type" in note["message"]


def test_damage_that_still_decodes_is_noted_where_it_shows(tmp_path):
    control = piece("1", "Bad\x01Name", "Main", 1, 1, {})
    replaced = piece("2", "Caf\ufffd", "Main", 2, 2, {})
    # Two traits but a state with one level: backslashes were lost.
    broken = encode(["+", "3", chain("mark;Side", "piece;;;z.png;Broken"), "Main;3;3;;0"], "/")
    clean = piece("4", "Clean", "Main", 4, 4, {"Side": "Axis"})
    unknown_command = "SOMETHING\tVASSAL\tdoes not know"       # ignored by every encoder: not damage
    save = write_game(tmp_path / "game.vsav", [control, replaced, broken, clean], {}, [unknown_command])
    notes = {note["kind"]: note for note in dump_file(save)["notes"]}
    assert notes["control_characters"]["pieces"] == ["1"]
    assert notes["replacement_characters"]["pieces"] == ["2"]
    assert notes["broken_escapes"]["pieces"] == ["3"]
    assert "not_created" not in notes
    assert all("4" not in note["pieces"] for note in notes.values())


def test_the_state_levels_are_those_of_the_current_state(tmp_path):
    """The dump's broken_escapes note counts the levels its facts read: a change of state is counted anew."""
    broken = encode(["+", "3", chain("mark;Side", "piece;;;z.png;Broken"), "Main;3;3;;0"], "/")
    save = write_game(tmp_path / "game.vsav", [broken, piece("4", "Clean", "Main", 4, 4, {"Side": "Axis"})], {}, [])
    _, state = read_final_state(save)
    assert state.state_levels("3") == 1
    assert state.state_levels("4") == state.piece_type(state.pieces["4"].type).trait_count
    state.apply_leaf(encode(["D", "3", chain("Axis", "Main;3;3;;0")], "/"))
    assert state.state_levels("3") == 2


def test_a_clean_save_has_no_notes(tmp_path):
    save = write_game(tmp_path / "game.vsav", [piece("1", "Clean", "Main", 4, 4, {"Side": "Axis"})], {}, [])
    assert dump_file(save)["notes"] == []

"""Log steps replayed as VASSAL executes them: moves, stacks, undo, removal."""

from __future__ import annotations

from validator.saves.vassal import iter_sections, read_log, replay

from vassal_save_writer import add_piece, command, restore, write_save

A = add_piece("1", ["obs;77,130;back.png;Mask;G;Hidden unit", "piece;;;a.png;Alpha"], ["pw;", "null;10;10;;0"])
B = add_piece("2", ["hide;73,130;Hide", "piece;;;b.png;Bravo"], ["null", "Main Map;50;50;;0"])
STACK = "+/9/stack/Main Map;10;10;1;@@2"


def _log(tmp_path):
    steps = [
        command("LOG\tM/2/Main Map/10/10/1/Main Map/50/50/null/pw", "LOG\tCHAT* Bravo moves onto Alpha"),
        command("LOG\tM/1/Main Map/90/90/null/Main Map/10/10/null/pw"),
        command("LOG\tUNDO\ttrue", "LOG\tM/1/Main Map/10/10/null/Main Map/90/90/null/pw", "LOG\tUNDO\tfalse"),
        command("LOG\tD/2/73,130\tMain Map;10;10;;0"),
        command("LOG\t-/1"),
    ]
    text = command(restore(A, B, STACK), *steps)
    return write_save(tmp_path / "r.vlog", text, "VOXZ", key=0x21)


def test_steps_and_positions(tmp_path):
    log = read_log(_log(tmp_path))
    assert [step.index for step in log.steps] == [1, 2, 3, 4, 5]
    assert log.steps[0].chat == ("* Bravo moves onto Alpha",)
    assert [step.undo for step in log.steps] == [False, False, True, False, False]
    initial = log.initial
    alpha = initial.piece("1")
    assert (alpha.map, alpha.x, alpha.y, alpha.stack_id) == ("Main Map", 10, 10, "9")
    assert alpha.masked and alpha.mask_name == "Hidden unit"
    assert not initial.piece("2").hidden and initial.piece("2").stack_id is None
    positions = [position for _, position in log.positions()]
    assert positions[0].stacks[0].piece_ids == ("1", "2")                 # Bravo placed just above Alpha
    assert positions[1].piece("1").stack_id != "9"                        # Alpha alone in a new local stack
    assert (positions[1].piece("1").x, positions[1].piece("1").y) == (90, 90)
    assert positions[2].piece("1").stack_id == "9"                        # undo merged it back, to the bottom
    assert positions[2].stacks[0].piece_ids == ("1", "2")
    assert positions[3].piece("2").hidden
    assert [p.id for p in positions[4].pieces] == ["2"]
    assert positions[4].stacks[0].piece_ids == ("2",)
    assert log.final == positions[4]


def test_streaming_replay_agrees(tmp_path):
    path = _log(tmp_path)
    state, steps = replay(path)
    assert steps == 5
    final = read_log(path).final
    streamed = state.snapshot(format="VOXZ")
    assert (streamed.pieces, streamed.stacks) == (final.pieces, final.stacks)
    assert sum(1 for section in iter_sections(path) if section.step is not None) == 5

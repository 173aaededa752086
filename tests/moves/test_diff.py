"""The difference between two positions, and the JSON shapes of diff and of move findings (docs/cli.md)."""

from __future__ import annotations

import json

from validator.moves.diff import difference
from validator.saves.xml_reader import read_position_file

from tests.moves.saves import partisan, tito_save

MACEDONIA, SERBIA = "macedonia/mountain/partisan", "serbia/mountain/partisan"
ITALIAN = 'id="it-1" name="Italian division" nationality="italian" size="division" strength="6"'
WEAKER_ITALIAN = ITALIAN.replace('strength="6"', 'strength="4"')


def test_pieces_added_removed_moved_and_changed_are_told_apart(tmp_path):
    before = tito_save(tmp_path / "before.xml", [
        partisan(MACEDONIA), partisan(SERBIA, "p2"), f'{ITALIAN} location="albania/mountain/axis"'])
    after = tito_save(tmp_path / "after.xml", [
        partisan(SERBIA), WEAKER_ITALIAN + ' location="albania/mountain/axis"',
        partisan("bosnia/mountain/partisan", "p3")], turn=6)
    change = difference(read_position_file(before), read_position_file(after))
    assert [(move.id, move.start, move.end) for move in change.moved] == [("p1", MACEDONIA, SERBIA)]
    assert [piece.id for piece in change.added] == ["p3"] and [piece.id for piece in change.removed] == ["p2"]
    assert [(item.id, item.values) for item in change.changed] == [("it-1", ("strength",))]
    assert change.position_changes == ("turn",)
    assert change.summary() == "1 piece moved, 1 piece added, 1 piece removed, 1 piece changed"


def test_diff_prints_text_and_the_documented_json(tmp_path, run_cli):
    before = tito_save(tmp_path / "before.xml", [partisan(MACEDONIA), f'{ITALIAN} location="albania/mountain/axis"'])
    after = tito_save(tmp_path / "after.xml", [partisan(SERBIA)])
    code, out, err = run_cli("diff", before, after, "--format", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert set(shown) == {"before", "after", "position_changes", "added", "removed", "moved", "changed"}
    assert shown["before"] == {"source": str(before), "game": "tito", "scenario": "campaign", "turn": "5",
                               "phase": "yugoslav-movement", "phasing": ""}
    assert shown["moved"] == [{"piece": "p1", "piece_name": "Partisan group", "from": MACEDONIA,
                               "from_name": "Macedonia / Partisan Mountain", "to": SERBIA,
                               "to_name": "Serbia / Partisan Mountain"}]
    assert shown["removed"] == [{"piece": "it-1", "piece_name": "Italian division", "location": "albania/mountain/axis",
                                 "location_name": "Albania / Axis Mountain"}]
    code, out, _ = run_cli("diff", before, after)
    assert code == 0
    assert "moved   Partisan group from Macedonia / Partisan Mountain to Serbia / Partisan Mountain" in out
    assert "removed Italian division from Albania / Axis Mountain" in out


def test_a_changed_piece_lists_each_value_before_and_after(tmp_path, run_cli):
    before = tito_save(tmp_path / "before.xml", [f'{ITALIAN} location="albania/mountain/axis"'])
    german = ITALIAN.replace("italian", "german")
    after = tito_save(tmp_path / "after.xml", [german + ' location="albania/mountain/axis"'])
    _, out, _ = run_cli("diff", before, after, "--format", "json")
    assert json.loads(out)["changed"] == [{"piece": "it-1", "piece_name": "Italian division",
                                           "values": {"nationality": {"before": "italian", "after": "german"}}}]


def test_diff_refuses_saves_of_two_games(tmp_path, run_cli):
    tito = tito_save(tmp_path / "tito.xml", [partisan(MACEDONIA)])
    other = tmp_path / "fen.xml"
    other.write_text(tito.read_text().replace('game="tito"', 'game="tww"'))
    code, out, err = run_cli("diff", tito, other)
    assert code == 2 and out == "" and "Traceback" not in err


def test_a_move_finding_in_json_says_it_judges_a_move_and_names_the_move(tmp_path, run_cli):
    before = tito_save(tmp_path / "before.xml", [partisan(MACEDONIA)], turn=1)
    after = tito_save(tmp_path / "after.xml", [partisan(SERBIA)], turn=1)
    code, out, _ = run_cli("check", before, after, "--format", "json")
    assert code == 1
    (link,) = json.loads(out)["links"]
    assert set(link) == {"index", "before", "after", "legal", "moves", "breaks", "violations", "findings"}
    moves = [violation for violation in link["violations"] if violation["judges"] == "move"]
    assert [violation["rule"] for violation in moves] == ["tito:6.63"]  # 15.4 cited in the same violation
    assert all({"rule", "case", "severity", "message", "location", "pieces", "piece_names", "url", "judges"}
               <= violation.keys() for violation in moves)
    assert moves[0]["piece_names"] == ["Partisan group"] and moves[0]["location"] == SERBIA
    assert all(finding["judges"] == "position" for finding in link["findings"])

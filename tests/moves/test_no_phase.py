"""Saves that give no phase: moves over several saves of one Game-Turn cannot be judged whole, and the chain says so
with an unchecked finding naming the phase as what is missing, not silence."""

from __future__ import annotations

import json
from pathlib import Path

from tests.moves.saves import partisan, tito_save

ROUTE = ("bosnia/mountain/partisan", "croatia/mountain/partisan", "islands/mountain/partisan")


def without_phase(path: Path, location: str, turn: int) -> Path:
    saved = tito_save(path, [partisan(location)], turn=turn, phase="")
    saved.write_text(saved.read_text().replace(' phase=""', ""))
    return saved


def links_of(run_cli, saves: list[Path]) -> tuple[int, list[dict]]:
    code, out, err = run_cli("check", *saves, "--format", "json")
    assert code in (0, 1), err
    return code, json.loads(out)["links"]


def undecided(link: dict) -> list[dict]:
    return [finding for finding in link["findings"]
            if finding["severity"] == "unchecked" and "the saves give no phase" in finding["message"]]


def test_a_unit_moving_twice_in_a_game_turn_without_phases_is_said_to_be_unjudged_whole(run_cli, tmp_path):
    saves = [without_phase(tmp_path / f"{index}.xml", location, turn=5) for index, location in enumerate(ROUTE)]
    code, links = links_of(run_cli, saves)
    assert code == 0 and undecided(links[0]) == []
    found = undecided(links[1])
    assert [finding["case"] for finding in found] == ["6.11", "6.5"]  # Bosnia to the Islands, were it one phase
    assert all(finding["pieces"] == ["p1"] and finding["judges"] == "move" and "from Bosnia" in finding["message"]
               for finding in found)
    assert links[1]["violations"] == []
    _, text, _ = run_cli("check", *saves)
    assert "(unchecked) judged whole from" in text


def test_moves_in_different_game_turns_need_no_phase_to_be_judged(run_cli, tmp_path):
    saves = [without_phase(tmp_path / f"{index}.xml", location, turn=5 + index)
             for index, location in enumerate(ROUTE)]
    _, links = links_of(run_cli, saves)
    assert [undecided(link) for link in links] == [[], []]

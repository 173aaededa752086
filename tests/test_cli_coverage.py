"""`referee rules coverage GAME`: every case of the index with its status, in text and JSON."""

from __future__ import annotations

import json

from validator import coverage
from validator.games import get


def test_the_text_listing_starts_with_the_totals_and_lists_every_case(run_cli):
    code, out, err = run_cli("rules", "coverage", "tito")
    assert code == 0 and err == ""
    lines = out.splitlines()
    found = coverage.of_game(get("tito"))
    assert lines[0] == (
        f"tito: {found.checked} of {len(get('tito').case_index)} sections and cases enforced, "
        f"{found.count('unchecked')} unchecked, {found.count('not encoded')} not encoded."
    )
    assert "  14.3  [unchecked]  Losing victory points" in lines
    assert any(line.strip().startswith("tito:6.21 ") for line in lines)


def test_the_json_listing_is_the_contract(run_cli):
    code, out, _ = run_cli("rules", "coverage", "awaw", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [case["case"] for case in data["cases"]] == [str(entry.number) for entry in get("awaw").case_index]
    assert data["checked_cases"] + data["unchecked_cases"] + data["not_encoded_cases"] == data["index_cases"]
    built = next(case for case in data["cases"] if case["case"] == "11.32")
    assert built["status"] == "enforced" and {"11.32A", "11.32B"} <= {check["case"] for check in built["checks"]}
    assert built["fixtures"]["passing"] >= 1 and built["fixtures"]["failing"] >= 1
    cooperation = next(case for case in data["cases"] if case["case"] == "11.44")
    assert cooperation["status"] == "unchecked" and cooperation["needs"]


def test_an_unknown_game_is_unusable_input(run_cli):
    code, out, err = run_cli("rules", "coverage", "chess")
    assert code == 2 and out == ""
    assert err.startswith("referee: There is no game 'chess'.")

"""Moves between VASSAL saves read through the game's mapping, and between a VASSAL save and our save XML."""

from __future__ import annotations

import json

from sample_modules import tito_module, tito_save_from_position
from tests.moves.saves import partisan, tito_save

MACEDONIA, SERBIA = "macedonia/mountain/partisan", "serbia/mountain/partisan"


def test_diff_and_check_read_vassal_saves_through_the_mapping(tmp_path, run_cli):
    module = tito_module(tmp_path)
    before = tito_save_from_position(tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1),
                                     tmp_path / "1.vsav")
    after = tito_save_from_position(tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=1), tmp_path / "2.vsav")
    code, out, err = run_cli("diff", before, after, "--game", "tito", "--module", module, "--format", "json")
    assert code == 0, err
    (moved,) = json.loads(out)["moved"]
    assert (moved["from"], moved["to"]) == (MACEDONIA, SERBIA)
    code, out, _ = run_cli("check", before, after, "--game", "tito", "--module", module, "--format", "json")
    (link,) = json.loads(out)["links"]
    assert code == 1 and [violation["case"] for violation in link["violations"]] == ["6.63"]  # citing 15.4 too


def test_a_chain_may_mix_a_vassal_save_and_our_save_xml(tmp_path, run_cli):
    module = tito_module(tmp_path)
    before = tito_save_from_position(tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]), tmp_path / "1.vsav")
    after = tito_save(tmp_path / "2.xml", [partisan(SERBIA)])
    code, out, err = run_cli("check", before, after, "--game", "tito", "--module", module, "--format", "json")
    assert code == 0, (out, err)
    (link,) = json.loads(out)["links"]
    assert link["moves"][0]["to"] == SERBIA and link["legal"]

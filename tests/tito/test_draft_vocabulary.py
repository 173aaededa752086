"""A Tito mapping draft matches piece names to Tito's kinds, nationalities and sizes, and properties to its facts.

The sample module the tests build (tests/vassal/modules.py) holds the map;
the save holds pieces whose names say what they are ("Italian Inf Div"),
one whose name does not say its size, and global properties named like
Tito's position attributes and facts, and one that is none of them.  The
draft, used as it is written, must judge what it matched (eight Italian
divisions overstack a display: 6.21) and leave the rest out, saying so.
The corpus holds no Tito module (its README), so these are the real-file
tests of the Tito draft; tests/vassal/test_mapping_draft_corpus.py runs the draft
on the corpus modules of other games.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from validator.games import get
from validator.saves.vassal.draft_state import UNMATCHED_TABLE
from validator.saves.vassal.mapping import NAMESPACE, read_mapping
from validator.saves.vassal.mapping_draft import classify

from tests.vassal.modules import tito_game, tito_module, tito_unit

M = f"{{{NAMESPACE}}}"
PROPERTIES = {"Scenario": "Campaign Game", "Game Turn": "4", "Phase": "Axis Combat", "Phasing": "Axis", "VP": "18",
              "Tito": "Unidentified",
              "Italian Surrender": "false", "Weather": "Snow"}


def referee(*arguments: object) -> subprocess.CompletedProcess:
    environment = {**os.environ, "REFEREE_RULEBOOKS": os.environ.get("REFEREE_RULEBOOKS", "/work/shared/rulebooks")}
    return subprocess.run([sys.executable, "-m", "validator.cli", *map(str, arguments)], capture_output=True,
                          text=True, check=False, env=environment)


def overstacked_save(folder: Path) -> Path:
    italians = [tito_unit(f"it-{index}", "Italian Inf Div", "Montenegro: Cetinje Axis", {}) for index in range(8)]
    unsized = tito_unit("cetnik-1", "Chetnik Guerrillas", "Serbia: Belgrade Yugoslav", {})
    return tito_game(folder / "game.vsav", [*italians, unsized], PROPERTIES)


def test_tito_names_give_kind_nationality_and_size_only_when_each_is_plain():
    tito = get("tito").vocabulary
    found = classify("Mtn Inf Div", "de-mtn.png", "Counters / Germany", tito)
    assert (found.kind, found.value("nationality"), found.value("size"), found.missing) == (
        "mountain-infantry", "german", "division", ()), "a phrase (Mtn Inf) is read before its words"
    assert classify("Partisan Gue Grp", "", "", tito).values == {"nationality": "partisan", "size": "group"}
    assert classify("Tito", "tito.png", "", tito).missing == (
        "no nationality: no word of its name or folder or prototypes names a nationality",
        "no size: no word of its name or image or prototypes names a size"), (
        "Tito's own piece says neither: the club fills it in")
    assert classify("Croat Bde", "", "Counters / German", tito).value("nationality") is None, "name and folder disagree"


def test_the_tito_draft_judges_what_its_names_make_plain(tmp_path):
    module, save = tito_module(tmp_path), overstacked_save(tmp_path)
    drafted = referee("vassal", "mapping", "draft", "--module", module, "--game", "tito", save,
                      "--output", tmp_path / "club.xml")
    assert drafted.returncode == 0, drafted.stderr
    assert "2 of 2 piece names classified (1 with every attribute the game needs), 7 of 8 global properties matched" \
        in drafted.stderr
    mapping = read_mapping(tmp_path / "club.xml")
    assert {name: mapping.tables[name].entries for name in ("unit-types", "nationalities", "sizes")} == {
        "unit-types": {"Italian Inf Div": "infantry"}, "nationalities": {"Italian Inf Div": "italian"},
        "sizes": {"Italian Inf Div": "division"}}
    state = {rule.property: (rule.position or rule.fact, rule.value is not None) for rule in mapping.state}
    assert state == {"Scenario": ("scenario", True), "Game Turn": ("turn", False), "Phase": ("phase", True),
                     "Phasing": ("phasing", True),
                     "VP": ("victory-points", False), "Tito": ("tito-state", True),
                     "Italian Surrender": ("italian-surrender", False)}, "word values are slugged, numbers not"
    assert mapping.tables[UNMATCHED_TABLE].entries == {"Weather": ""}
    located = {name: rule.template.text for (map_name, name), rule in mapping.exact_locations.items()
               if map_name == "Yugoslavia" and not rule.skip}
    assert (located["Montenegro: Cetinje Axis"], located["Serbia Axis Mountain"]) == (
        "montenegro/cetinje/axis", "serbia/mountain/axis"), "the places Tito's rules add match by id or label"
    assert "Serbia Neutral Chetniks" not in located, "a name that is not the place's (plural here) is left to fill in"

    checked = referee("check", save, "--module", module, "--game", "tito", "--mapping", tmp_path / "club.xml",
                      "--arbiter", "--format", "json")
    assert checked.returncode == 1, checked.stderr
    report = json.loads(checked.stdout)
    stacking = [v for v in report["violations"] if v["case"] == "6.21"]
    assert [v["location"] for v in stacking] == ["montenegro/cetinje/axis"]
    assert report["mapping_todo"]["left_out_by_todo"] == 1, "the Chetnik piece, whose size no word gives, is left out"

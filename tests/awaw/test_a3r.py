"""The corpus's "A3R with AWAW Map" module and save, drafted into an A World at War mapping and checked.

The draft's skeleton must number the board as the module does (its own
``ThirdReich.ObliqueHexGridNumbering`` included), the partisan slots must be
classified by name and image, and once a club has filled in a few hexes, the
turn and its partisans' homes (tests/fixtures/awaw/a3r/), a check of a save
holding partisans judges the ones on filled-in hexes and reports the one on a
hex without data as unchecked.  Everything runs through the ``referee``
commands in real subprocesses, on a save derived in the test folder from the
real one (the corpus files are never copied into the project).
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from validator.games import get
from validator.saves.vassal.locations import location_of
from validator.saves.vassal.mapping import NAMESPACE, read_mapping
from validator.saves.vassal.mapping_draft import classify
from validator.saves.vassal.module import read_module
from validator.saves.vassal.obfuscation import deobfuscate

from tests.vassal_corpus import corpus_file

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "awaw" / "a3r"
MAP = "Map Window"
M = f"{{{NAMESPACE}}}"


def referee(*arguments: object) -> subprocess.CompletedProcess:
    environment = {**os.environ, "REFEREE_RULEBOOKS": os.environ.get("REFEREE_RULEBOOKS", "/work/shared/rulebooks")}
    return subprocess.run([sys.executable, "-m", "validator.cli", *map(str, arguments)], capture_output=True,
                          text=True, check=False, env=environment)


@pytest.fixture(scope="module")
def corpus():
    return corpus_file("a3r-awaw", "buildFile-a3r.yml"), corpus_file(
        "a3r-awaw", "A3R_1939_Scenario_Template_Rev1702_AWAW.vsav")


def hex_rows(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return {row["id"]: row for row in csv.DictReader(stream)}


def with_partisans(save: Path, module_path: Path, hexes: dict[str, dict[str, str]], target: Path,
                   partisans: list[dict]) -> Path:
    """The real save plus the club's partisans, each a copy of a saved piece with the partisan slot's image and name."""
    slots = {slot.name: slot for slot in read_module(module_path).piece_slots}
    with zipfile.ZipFile(save) as archive:
        text = b"".join(deobfuscate([archive.read("savedGame")], source=str(save))).decode("utf-8")
    for partisan in partisans:
        like, slot = slots[partisan["like"]], slots[partisan["slot"]]
        assert like.prototypes == slot.prototypes, "the copied piece is built as the partisan's slot builds it"
        basic = f"piece;C;D;{like.image};{like.piece_name}/"
        start, end, segment = _segment_on_map(text, basic)
        row = hexes[partisan["hex"]]
        copy = re.sub(r"^\+/[0-9]+/", f"+/{partisan['id']}/", segment)
        copy = copy.replace(basic, f"piece;C;D;{slot.image};{slot.piece_name}/")
        copy = re.sub(r"Map Window;-?[0-9]+;-?[0-9]+$", f"Map Window;{row['x']};{row['y']}", copy)
        text = text[:end] + "\\\x1b" + copy + text[end:]
    with zipfile.ZipFile(target, "w") as archive:
        archive.writestr("savedGame", text.encode("utf-8"))  # plain command text, which VASSAL also reads
    return target


def _segment_on_map(text: str, basic: str) -> tuple[int, int, str]:
    """The first AddPiece of the pieces group holding ``basic`` whose piece stands on the main map."""
    at = text.index(basic)
    while True:
        start, end = text.rindex("\x1b+/", 0, at) + 1, text.index("\x1b", at) - 1
        assert text[end] == "\\"
        if re.search(r"\tMap Window;-?[0-9]+;-?[0-9]+$", text[start:end]):
            return start, end, text[start:end]
        at = text.index(basic, at + 1)


@pytest.fixture(scope="module")
def drafted(corpus, tmp_path_factory):
    module_path, save = corpus
    folder = tmp_path_factory.mktemp("a3r")
    result = referee("vassal", "mapping", "draft", "--module", module_path, "--game", "awaw", save,
                     "--output", folder / "a3r.xml")
    assert result.returncode == 0, result.stderr
    return folder, result


def test_the_draft_is_a_valid_mapping_with_its_skeleton(drafted):
    folder, result = drafted
    assert "hexes in the skeleton" in result.stderr and "elements marked todo" in result.stderr
    assert "give its real size with --board-size" in result.stderr  # the board image is not in the corpus
    assert {path.name for path in folder.iterdir()} >= {"a3r.xml", "a3r-hexes.csv", "a3r-areas.csv", "a3r-map.xml"}


def test_the_skeleton_numbers_the_board_as_the_module_does(corpus, drafted):
    module_path, _ = corpus
    folder, _ = drafted
    module = read_module(module_path)
    rows = hex_rows(folder / "a3r-hexes.csv")
    assert len(rows) > 1500
    assert all(location_of(module, MAP, int(row["x"]), int(row["y"])) == row["vassal"] for row in rows.values())
    # M25, worked by hand in tests/vassal/test_corpus.py; its neighbours follow from the grid's geometry.
    assert set(rows["M25"]["neighbours"].split()) == {"M24", "M26", "L25", "L26", "N24", "N25"}
    assert all(hex_id in rows[other]["neighbours"].split()
               for hex_id, row in rows.items() for other in row["neighbours"].split())
    assert rows["M25"]["area"] == "" and rows["M25"]["features"] == ""  # the game's data is left to the club


def test_partisan_slots_are_classified_by_name_and_image(drafted):
    folder, _ = drafted
    root = etree.parse(str(folder / "a3r.xml")).getroot()
    types = {entry.get("vassal"): entry.get("ours") for entry in root.find(f"{M}table[@name='piece-types']")}
    builders = {entry.get("vassal"): entry.get("ours")
                for entry in root.find(f"{M}table[@name='partisan-builders']")}
    assert {name: types[name] for name in ("UK Part 1-3", "RUS Part 1-3", "Part")} == dict.fromkeys(
        ("UK Part 1-3", "RUS Part 1-3", "Part"), "partisan")
    assert builders == {"UK Part 1-3": "britain", "RUS Part 1-3": "russia"}  # the neutral "Part" names nobody
    assert (types["UK Submarine"], types["UK Jet"]) == ("submarine", "air"), "by name; by its prototype Air"
    assert classify("UK Part 1-3", "br-part", "Counters / Units / Britain", get("awaw").vocabulary).kind_from == (
        "name and image")
    partisans_left_out = [e for e in root.iter(f"{M}ignore") if "pieces need their home" in (e.get("todo") or "")]
    assert len(partisans_left_out) == 1, "the unfilled draft checks no partisan"


def fill_in(folder: Path, club: dict) -> Path:
    """What the club does by hand: a few hexes and areas, the turn, its partisans' homes."""
    hexes_path = folder / "a3r-hexes.csv"
    with open(hexes_path, newline="", encoding="utf-8") as stream:
        reader = csv.DictReader(stream)
        columns, rows = reader.fieldnames, list(reader)
    filled = hex_rows(FIXTURES / "hexes.csv")
    for row in rows:
        row.update({key: value for key, value in filled.get(row["id"], {}).items() if key != "id"})
    with open(hexes_path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, columns)
        writer.writeheader()
        writer.writerows(rows)
    (folder / "a3r-areas.csv").write_bytes((FIXTURES / "areas.csv").read_bytes())
    result = referee("vassal", "mapping", "skeleton", "--hexes", hexes_path, "--areas", folder / "a3r-areas.csv",
                     "--game", "awaw", "--output", folder / "a3r-map.xml")
    assert result.returncode == 0, result.stderr
    tree = etree.parse(str(folder / "a3r.xml"))
    root = tree.getroot()
    turn = root.find(f"{M}state/{M}global[@position='turn']")
    turn.set("default", club["turn"])
    del turn.attrib["todo"]
    homes = root.find(f"{M}table[@name='partisan-homes']")
    del homes.attrib["todo"]
    for partisan in club["partisans"]:
        etree.SubElement(homes, f"{M}entry", vassal=partisan["id"], ours=partisan["home"])
    for ignore in list(root.iter(f"{M}ignore")):
        if "pieces need their home" in (ignore.get("todo") or ""):
            ignore.getparent().remove(ignore)
    tree.write(str(folder / "club.xml"), xml_declaration=True, encoding="UTF-8")
    return folder / "club.xml"


def test_a_check_with_the_filled_in_draft_judges_partisans_and_leaves_hexes_without_data_unchecked(corpus, drafted):
    module_path, save = corpus
    folder, _ = drafted
    club = tomllib.loads((FIXTURES / "club.toml").read_text(encoding="utf-8"))
    mapping = fill_in(folder, club)
    derived = with_partisans(save, module_path, hex_rows(folder / "a3r-hexes.csv"), folder / "with-partisans.vsav",
                             club["partisans"])
    result = referee("check", derived, "--module", module_path, "--game", "awaw", "--mapping", mapping,
                     "--arbiter", "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    outside = [v for v in report["violations"] if v["case"] == "11.42"]
    assert [(v["location"], v["pieces"]) for v in outside] == [("M29", ["9100000000002"])]
    assert "built in France but stands in Germany" in outside[0]["message"]
    unchecked = {f["location"]: f for f in report["findings"] if f["severity"] == "unchecked"}
    assert unchecked["J43"]["pieces"] == ["9100000000003"] and "gives no country" in unchecked["J43"]["message"]
    assert not [v for v in report["violations"] if v["location"] == "J43"], "nothing is judged on a hex without data"
    assert not [v for v in report["violations"] if "9100000000001" in v["pieces"] and v["case"] == "11.42"], (
        "the partisan at home in France is judged and passes 11.42")
    # O22's neighbours are not filled in: what looks at them is said to read them as neutral land.
    assert "O23" in unchecked["O22"]["message"] and "neutral land" in unchecked["O22"]["message"]


def test_mapping_check_counts_what_the_filled_in_draft_resolves(corpus, drafted):
    module_path, save = corpus
    folder, _ = drafted
    club = tomllib.loads((FIXTURES / "club.toml").read_text(encoding="utf-8"))
    mapping = fill_in(folder, club)
    derived = with_partisans(save, module_path, hex_rows(folder / "a3r-hexes.csv"), folder / "counted.vsav",
                             club["partisans"])
    result = referee("vassal", "mapping", "check", "--mapping", mapping, "--module", module_path, derived,
                     "--format", "json")
    assert result.returncode == 0, result.stderr
    counted = json.loads(result.stdout)["coverage"][0]
    assert counted["pieces"] == 418 + 3
    assert counted["resolved"] + counted["unresolved"] + sum(counted["skipped"].values()) == counted["pieces"]
    without_data = {item["hex"]: item["pieces"] for item in counted["hexes_without_data"]}
    assert "J43" in without_data and "O22" not in without_data and "M29" not in without_data
    assert {"map": "Scenario Card", "location": "(whole map)", "why": "the map is ignored until filled in",
            "pieces": 175} in counted["unresolved_locations"]
    assert any(cause["because"].startswith("pieces stand on hexes") for cause in counted["unchecked"])


def test_the_unedited_draft_points_at_its_todo_global(corpus, drafted):
    module_path, save = corpus
    folder, _ = drafted
    result = referee("check", save, "--module", module_path, "--game", "awaw", "--mapping", folder / "a3r.xml")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "the <global> at line" in result.stderr and "is still marked todo" in result.stderr


def test_a_draft_filled_only_with_a_turn_says_what_its_todo_rules_left_out(corpus, drafted):
    module_path, save = corpus
    folder, _ = drafted
    tree = etree.parse(str(folder / "a3r.xml"))
    turn = tree.getroot().find(f"{M}state/{M}global[@position='turn']")
    turn.set("default", "fall 1939")
    tree.write(str(folder / "turn-only.xml"), xml_declaration=True, encoding="UTF-8")
    arguments = ("check", save, "--module", module_path, "--game", "awaw", "--mapping", folder / "turn-only.xml")
    text = referee(*arguments)
    assert text.returncode in (0, 1), text.stderr
    assert "(markers)" not in text.stderr and "left out by <ignore> rules still marked todo" in text.stderr
    assert "this verdict is not final" in text.stdout
    report = json.loads(referee(*arguments, "--format", "json").stdout)
    todo = report["mapping_todo"]
    assert todo["todo_entries"] == len(read_mapping(folder / "turn-only.xml").to_fill_in)
    assert todo["left_out_by_todo"] > 0


def test_the_guide_counts_the_scenario_card_boards_as_the_module_has_them(corpus):
    module_path, _ = corpus
    boards = len(read_module(module_path).maps["Scenario Card"].boards)
    words = {6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
    guide = (Path(__file__).resolve().parents[2] / "docs" / "vassal-mapping.md").read_text(encoding="utf-8")
    assert f"`Scenario Card` map (its {words[boards]} boards" in " ".join(guide.split())

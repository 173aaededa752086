"""``referee games``, reference-only rulebooks, the import's case-index comparison, and checks refused."""

from __future__ import annotations

import json
from pathlib import Path

from validator import games, instance

from .reference_game import GAME, TEXT, TITLE, add_and_import

ROOT = Path(__file__).resolve().parent.parent
NO_CHECKS = (
    f"Referee has no checks for '{GAME}' (a reference-only game): it can serve its rulebook but not judge "
    "positions; referee games list shows the games it can check."
)

# Texts of our own numbered like parts of Tito's case index, or like none of it.
TITO_CHAPTER = "6.0 STACKING\n6.1 Where Pieces Stand\nPieces stand in boxes.\n6.2 Limits\nNo box holds too many.\n"
OTHER_NUMBERS = "[21.0] RIVERS\n[21.1] Crossing. Boats cross rivers.\n[21.2] Fords. Fords slow boats.\n"


def test_games_list_shows_plugin_and_added_games_with_what_referee_does_for_them(run_cli):
    add_and_import(run_cli)
    code, out, err = run_cli("games", "list")
    assert code == 0 and err == ""
    rows = {line.split()[0]: line for line in out.splitlines()}
    assert list(rows) == sorted([GAME, *games.registry()])
    assert rows[GAME] == "harbour-watch  reference only  imported      Harbour Watch"
    assert rows["tito"] == "tito           checks          not imported  Tito and His Partisan Army (SPI)"
    code, out, _ = run_cli("games", "list", "--format", "json")
    listed = {game["id"]: game for game in json.loads(out)}
    assert listed[GAME] == {
        "id": GAME, "title": TITLE, "reference_only": True, "checks": 0, "imported": True,
        "added_at": listed[GAME]["added_at"],
    }
    assert listed["tito"]["reference_only"] is False
    assert listed["tito"]["checks"] == len(games.get("tito").rules.checks())
    assert listed["tito"]["added_at"] is None


def test_games_add_says_what_was_added_and_how_to_import(run_cli):
    code, out, err = run_cli("games", "add", GAME, "--title", TITLE)
    assert (code, err) == (0, "")
    assert out == (f"Added the reference-only game {GAME} ({TITLE}). "
                   f"Import its rulebook with: referee rules import {GAME} FILE...\n")


def test_games_add_refuses_a_bad_id_in_one_sentence(run_cli):
    code, out, err = run_cli("games", "add", "Harbour Watch", "--title", TITLE)
    assert code == 2 and out == ""
    assert err.startswith("referee: 'Harbour Watch' cannot be a game id: use lowercase letters")
    assert err.count("\n") == 1
    code, _, err = run_cli("games", "add", "tito", "--title", "Mine")
    assert code == 2 and "is already the id of the plugin game" in err


def test_a_reference_only_rulebook_imports_lists_shows_and_refers_like_a_plugin_games(run_cli):
    summary = add_and_import(run_cli)
    assert summary.startswith(f"Imported the {GAME} rulebook from harbour-watch.txt.\n  sections:        6\n")
    assert "Note:" not in summary  # no case index to compare with
    code, out, _ = run_cli("rules", "list", GAME, "--format", "json")
    entries = json.loads(out)
    assert code == 0 and {entry["source"] for entry in entries} == {"rulebook"}
    assert [entry["case"] for entry in entries][:4] == ["1", "1.1", "1.2", "1.3"]
    code, out, _ = run_cli("rules", "show", GAME, "4.12C")
    assert code == 0 and "[3.1]" in out and "[4.12B]" in out
    code, out, _ = run_cli("rules", "refs", GAME, "--format", "json")
    assert {"from": "5.22", "to": "8.2", "resolved": False, "text": "8.2"} in json.loads(out)


def test_a_reference_only_game_has_no_checks_and_no_coverage(run_cli):
    add_and_import(run_cli)
    code, out, _ = run_cli("rules", "checks", GAME)
    assert code == 0
    assert out == f"{GAME} is a reference-only game: Referee serves its rulebook and has no checks for it.\n"
    code, out, _ = run_cli("rules", "checks", GAME, "--format", "json")
    assert (code, json.loads(out)) == (0, [])
    code, out, err = run_cli("rules", "coverage", GAME)
    assert (code, out) == (2, "")
    assert err == (f"referee: Referee has no checks for '{GAME}' (a reference-only game), so there is no coverage "
                   f"to list; referee rules list {GAME} lists its rulebook.\n")


def test_before_import_a_reference_only_game_has_nothing_to_list(run_cli):
    run_cli("games", "add", GAME, "--title", TITLE)
    code, out, err = run_cli("rules", "list", GAME)
    assert (code, out) == (2, "")
    assert err == (f"referee: The {GAME} rulebook is not imported yet. Import your copy first: "
                   f"referee rules import {GAME} FILE...\n")


def test_import_for_a_game_that_does_not_exist_says_how_to_add_it(run_cli):
    code, _, err = run_cli("rules", "import", GAME, TEXT)
    assert code == 2 and f"There is no game '{GAME}'." in err and 'referee games add ID --title "TITLE"' in err


def test_a_text_mostly_unknown_to_a_plugins_index_is_refused_unless_forced(run_cli, tmp_path):
    text = tmp_path / "rivers.txt"
    text.write_text(OTHER_NUMBERS, encoding="utf-8")
    index_cases = len(games.get("tito").case_index)
    code, out, err = run_cli("rules", "import", "tito", text)
    assert (code, out) == (2, "")
    assert err == (
        f"referee: rivers.txt: only 0 of the text's 3 case numbers are in the tito case index of {index_cases} cases, "
        'so this does not look like the tito rulebook; import it as a game of its own (referee games add ID --title '
        '"TITLE", then referee rules import ID FILE...), or give --force to import it as tito anyway.\n'
    )
    assert run_cli("rules", "list", "tito", "--format", "json")[1].count('"source": "index"') == index_cases
    code, out, err = run_cli("rules", "import", "tito", text, "--force")
    assert code == 0 and err == ""
    assert (f"Note: only 0 of the text's 3 case numbers are in the tito case index of {index_cases} cases; "
            "it was imported as tito because of --force.") in out
    code, out, _ = run_cli("rules", "list", "tito", "--format", "json")
    assert [entry["case"] for entry in json.loads(out)] == ["21", "21.1", "21.2"]


def test_a_chapter_of_a_plugin_games_rulebook_imports_with_a_note_naming_what_it_lacks(run_cli, tmp_path):
    text = tmp_path / "stacking.txt"
    text.write_text(TITO_CHAPTER, encoding="utf-8")
    index = [entry.number for entry in games.get("tito").case_index]
    code, out, err = run_cli("rules", "import", "tito", text)
    assert code == 0 and err == ""
    note = out.splitlines()[-1]
    assert note.startswith(f"Note: this text lacks {len(index) - 3} of the {len(index)} cases of the tito case index: ")
    named = note.split(": ", 1)[1].rstrip(".").split(", ")
    assert "6" not in named and "6.1" not in named and "6.2" not in named
    code, out, _ = run_cli("rules", "import", "tito", text, "--format", "json")
    overlap = json.loads(out)["case_index"]
    assert overlap["text_cases"] == overlap["known"] == 3 and overlap["index_cases"] == len(index)
    assert overlap["missing"] == [str(number) for number in index if str(number) not in ("6", "6.1", "6.2")]


def test_the_import_json_of_a_reference_only_game_has_no_case_index(run_cli):
    run_cli("games", "add", GAME, "--title", TITLE)
    code, out, _ = run_cli("rules", "import", GAME, TEXT, "--format", "json")
    assert code == 0 and json.loads(out)["case_index"] is None


def test_games_remove_keeps_an_imported_rulebook_unless_told(run_cli):
    add_and_import(run_cli)
    code, out, err = run_cli("games", "remove", GAME)
    assert (code, out) == (2, "") and "--with-rulebook" in err
    assert run_cli("rules", "show", GAME, "4.1")[0] == 0
    code, out, err = run_cli("games", "remove", GAME, "--with-rulebook")
    assert (code, err) == (0, "") and out == f"Removed the reference-only game {GAME} ({TITLE}) and its rulebook.\n"
    code, _, err = run_cli("rules", "show", GAME, "4.1")
    assert code == 2 and f"There is no game '{GAME}'" in err
    code, _, err = run_cli("games", "remove", "tito")
    assert code == 2 and "comes with Referee's plugin" in err


def test_checking_a_save_of_a_reference_only_game_is_refused_never_legal(run_cli, tmp_path):
    add_and_import(run_cli)
    save = tmp_path / "harbour.xml"
    original = (ROOT / "examples" / "tito" / "opening-setup.xml").read_text(encoding="utf-8")
    save.write_text(original.replace('game="tito"', f'game="{GAME}"', 1), encoding="utf-8")
    line = next(number for number, text in enumerate(original.splitlines(), 1) if 'game="tito"' in text)
    for arguments in ([save], [save, "--format", "json"], [save, "--game", GAME]):
        code, out, err = run_cli("check", *arguments)
        assert (code, out) == (2, ""), arguments
        where = f"{save}: " if "--game" in arguments else f"{save}, line {line}: "
        assert err == f"referee: {'' if '--game' in arguments else where}{NO_CHECKS}\n", arguments


def test_checking_or_exporting_with_a_reference_only_game_is_refused_before_any_file_is_read(run_cli, tmp_path):
    run_cli("games", "add", GAME, "--title", TITLE)
    absent = tmp_path / "absent.vsav"
    for command in (["check", absent, "--module", absent, "--game", GAME],
                    ["export", absent, "--module", absent, "--game", GAME],
                    ["check", ROOT / "examples" / "tito" / "opening-setup.xml", "--game", GAME]):
        code, out, err = run_cli(*command)
        assert (code, out, err) == (2, "", f"referee: {NO_CHECKS}\n"), command


def test_a_plugin_games_check_needs_no_database(run_cli, instance_dir):
    """A check keeps its prepared map and case index in the instance folder, but opens no database."""
    code, _, _ = run_cli("check", ROOT / "examples" / "tito" / "opening-setup.xml")
    assert code == 0 and not instance.database_path(instance_dir).exists()

"""`referee info`: where the data lives and what it holds, found without creating anything."""

from __future__ import annotations

import json
import sqlite3

from validator import instance
from validator.games import registry

from tests.rulebook.samples import DOTTED


def test_info_before_anything_is_imported_creates_nothing(run_cli, instance_dir):
    code, out, err = run_cli("info", "--format", "json")
    assert code == 0 and err == ""
    facts = json.loads(out)
    assert facts["instance"] == {"folder": str(instance_dir), "exists": False, "chosen_by": "REFEREE_INSTANCE",
                                 "file_in_the_way": None}
    assert facts["database"] == {"path": str(instance_dir / instance.DATABASE_NAME), "exists": False}
    assert facts["rulebooks"] == []
    assert [game["id"] for game in facts["games"]] == sorted(registry())
    assert not instance_dir.exists()
    code, out, _ = run_cli("info")
    assert code == 0 and f"Instance folder: {instance_dir} (chosen by REFEREE_INSTANCE; not created yet)" in out
    assert "none yet; import your copy with: referee rules import GAME FILE..." in out
    assert not instance_dir.exists()


def test_info_lists_the_imported_rulebook_and_every_registered_game(run_cli, instance_dir, tmp_path):
    text = tmp_path / "pond.txt"
    text.write_text(DOTTED, encoding="utf-8")
    assert run_cli("rules", "import", "tww", text, "--no-fixups", "--force")[0] == 0
    database = instance_dir / instance.DATABASE_NAME
    before = database.read_bytes()

    facts = json.loads(run_cli("info", "--format", "json")[1])
    assert facts["database"]["exists"] and facts["instance"]["exists"]
    (book,) = facts["rulebooks"]
    with sqlite3.connect(database) as connection:
        stored = connection.execute("SELECT imported_at, COUNT(*) FROM rulebook JOIN rule_case USING (game)"
                                    " WHERE game = 'tww'").fetchone()
    counts = book["counts"]
    assert (book["game"], book["imported_at"], book["sources"]) == ("tww", stored[0], ["pond.txt"])
    assert counts["sections"] + counts["cases"] + counts["items"] == stored[1]
    by_id = {game["id"]: game for game in facts["games"]}
    for game in registry().values():
        assert by_id[game.id] == {"id": game.id, "title": game.title, "reference_only": False,
                                  "checks": len(game.rules.checks()),
                                  "rulebook_files": list(game.rulebook_files), "imported": game.id == "tww"}
    assert database.read_bytes() == before  # read-only: not even the schema check writes

    out = run_cli("info")[1]
    lines = out.splitlines()
    assert lines[0].startswith("Instance folder: ") and lines[1].startswith("Database: ")
    assert any(line.startswith(f"  tww    imported {stored[0]} from pond.txt: ") for line in lines)
    tito = registry()["tito"]
    assert f"  tito   {tito.title}: {len(tito.rules.checks())} checks, rulebook not imported" in lines


def test_info_lists_a_reference_only_game_beside_the_plugin_games(run_cli, instance_dir):
    assert run_cli("games", "add", "harbour-watch", "--title", "Harbour Watch")[0] == 0

    games = json.loads(run_cli("info", "--format", "json")[1])["games"]
    assert [game["id"] for game in games] == sorted([*registry(), "harbour-watch"])
    added = next(game for game in games if game["id"] == "harbour-watch")
    assert added == {"id": "harbour-watch", "title": "Harbour Watch", "reference_only": True, "checks": 0,
                     "rulebook_files": [], "imported": False}
    assert "  harbour-watch Harbour Watch: reference only, rulebook not imported" in run_cli("info")[1].splitlines()


def test_a_database_that_is_not_one_is_said_so(run_cli, instance_dir):
    instance_dir.mkdir()
    (instance_dir / instance.DATABASE_NAME).write_bytes(b"these are not the tables you are looking for" * 100)
    code, out, err = run_cli("info")
    assert code == 2 and out == ""
    assert f"referee: {instance_dir / instance.DATABASE_NAME}: cannot be read as a Referee database" in err


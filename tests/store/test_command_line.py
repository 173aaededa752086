"""The command line on either database: what it writes the next command finds; an unusable server is a sentence."""

from __future__ import annotations

import json

from validator import instance


def test_a_game_added_is_listed_by_info_on_either_database(run_cli, database_target):
    code, _out, err = run_cli("games", "add", "harbour-watch", "--title", "Harbour Watch")
    assert code == 0, err
    code, out, err = run_cli("info", "--format", "json")
    assert code == 0, err
    facts = json.loads(out)
    assert facts["database"]["exists"]
    assert facts["database"]["path"].startswith("postgresql://") == isinstance(database_target, str)
    assert "harbour-watch" in [game["id"] for game in facts["games"] if game["reference_only"]]


def test_a_database_server_that_cannot_be_used_is_exit_2_and_one_sentence(run_cli, monkeypatch):
    monkeypatch.setenv(instance.DATABASE_URL_VARIABLE, "postgresql://referee@/referee?host=/nonexistent-socket-folder")
    code, out, err = run_cli("games", "add", "harbour-watch", "--title", "Harbour Watch")
    assert code == 2 and out == ""
    assert "cannot be reached" in err and "REFEREE_DATABASE_URL" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1

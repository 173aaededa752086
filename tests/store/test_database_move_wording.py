"""``referee database move``: a target the server cannot give is named by ``--to``, the option that gave it."""

from __future__ import annotations

import os
from contextlib import closing
from urllib.parse import urlsplit, urlunsplit

import pytest

from validator import instance, postgresql, store


def test_a_missing_target_database_names_the_to_url(run_cli, instance_dir, monkeypatch):
    server = os.environ.get("REFEREE_TEST_POSTGRESQL_URL")
    if not server:
        pytest.skip("no PostgreSQL server to test against: set REFEREE_TEST_POSTGRESQL_URL")
    monkeypatch.delenv(instance.DATABASE_URL_VARIABLE, raising=False)
    instance.make_private_folders(instance_dir)
    with closing(store.connect(instance.database_path(instance_dir))):
        pass
    parts = urlsplit(server)
    missing = urlunsplit(parts._replace(path="/referee_no_such_database"))
    code, out, err = run_cli("database", "move", "--to", missing)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "no such database" in err and "correct its name in the --to URL." in err
    assert postgresql.URL_VARIABLE not in err

"""An arbiter's session ends when the password changes or the arbiter is removed; sign-in on a read-only database."""

from __future__ import annotations

from contextlib import closing

from validator import store
from validator.arbitration import arbiters

from .conftest import PASSWORD
from .test_not_stored import assert_not_stored, refuse_writes  # noqa: F401 (a fixture)
from .test_web import sign_in, token_of


def test_a_new_password_ends_the_sessions_signed_in_before_it(check_client, arbiter, database_path):
    sign_in(check_client)
    assert check_client.get("/case-files/").status_code == 200
    with closing(store.connect(database_path)) as connection:
        arbiters.change_password(connection, "alice", "another-password")
    assert check_client.get("/case-files/").status_code == 302
    sign_in(check_client, password="another-password")
    assert check_client.get("/case-files/").status_code == 200


def test_a_removed_arbiter_added_again_does_not_get_the_old_session_back(check_client, arbiter, database_path):
    sign_in(check_client)
    with closing(store.connect(database_path)) as connection:
        arbiters.remove(connection, "alice")
        arbiters.add(connection, "alice", PASSWORD)
    assert check_client.get("/case-files/").status_code == 302


def test_signing_in_on_a_database_that_refuses_writes_says_so(check_client, arbiter, refuse_writes):  # noqa: F811
    token = token_of(check_client)
    refuse_writes()
    answer = check_client.post("/sign-in", data={"csrf_token": token, "name": "alice", "password": PASSWORD})
    assert_not_stored(answer, "your sign-in")


def test_signing_out_by_get_is_not_allowed(check_client):
    answer = check_client.get("/sign-out")
    assert answer.status_code == 405 and answer.headers["Allow"].startswith("POST")

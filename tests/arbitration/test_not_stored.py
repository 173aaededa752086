"""A database that refuses to write is a 503 saying what was not stored, on every write path, on both databases.

The refusal is real.  On SQLite the database file is made read-only; the
tests run as root in CI, whom file modes do not stop, so the test thread
also lays down its right to override them (``CAP_DAC_OVERRIDE``, taken
from the thread's effective capabilities and given back after) and the
kernel refuses SQLite's write as it would any other user's.  On PostgreSQL
the app's connections are opened with ``default_transaction_read_only``,
as a read-only standby serves them.  Reading still works, so each page
that leads to the write still opens; the write is refused with a 503 and
a ``Retry-After``, and nothing is stored.
"""

from __future__ import annotations

import ctypes
import io
import os
from contextlib import closing
from pathlib import Path

import pytest

from validator import store
from validator.web import errors

from .test_web import checked_report, sign_in, token_of, write_ruling
from tests.web.conftest import html, orchard_save

CAP_DAC_OVERRIDE = 1
_CAPABILITY_VERSION_3 = 0x20080522


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Sets(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _set_file_override(on: bool) -> bool:
    """Give this thread's file-mode override back (``on``) or lay it down; whether it was held before."""
    libc = ctypes.CDLL(None, use_errno=True)
    header, sets = _Header(_CAPABILITY_VERSION_3, 0), (_Sets * 2)()
    if libc.capget(ctypes.byref(header), sets) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    held = bool(sets[0].effective & (1 << CAP_DAC_OVERRIDE))
    if on:
        sets[0].effective |= 1 << CAP_DAC_OVERRIDE
    else:
        sets[0].effective &= ~(1 << CAP_DAC_OVERRIDE)
    if libc.capset(ctypes.byref(header), sets) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")
    return held


@pytest.fixture
def refuse_writes(check_client, database_path):
    """Call it to make the app's database refuse every write from then on; undone after the test."""
    app, undo = check_client.application, []

    def refuse() -> None:
        if isinstance(database_path, str):  # PostgreSQL: a server that takes no writes
            app.config["DATABASE"] = database_path + "%20-cdefault_transaction_read_only%3Don"
            return
        path = Path(database_path)
        path.chmod(0o400)
        undo.append(lambda: path.chmod(0o600))
        if os.geteuid() == 0 and _set_file_override(False):
            undo.append(lambda: _set_file_override(True))

    yield refuse
    for step in reversed(undo):
        step()


def count(database_path, table: str) -> int:
    with closing(store.connect(database_path)) as connection:
        return connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def assert_not_stored(answer, what: str) -> None:
    assert answer.status_code == 503, answer.get_data(as_text=True)
    assert int(answer.headers["Retry-After"]) == errors.RETRY_AFTER_SECONDS
    said = answer.get_json()["error"] if answer.is_json else " ".join(html(answer).xpath("string(//main)").split())
    assert errors.NOT_STORED.format(what=what) in said


def test_a_check_whose_report_cannot_be_stored_is_a_503_and_leaves_no_file(check_client, database_path,
                                                                          refuse_writes):
    uploads = Path(check_client.application.instance_path) / "uploads"
    token = token_of(check_client, "/check")
    refuse_writes()
    page = check_client.post("/check", content_type="multipart/form-data",
                             data={"csrf_token": token, "save": (io.BytesIO(orchard_save()), "crowded.xml")})
    assert_not_stored(page, "the report of this check")
    program = check_client.application.test_client()  # a program's client: no cookies, so no token
    api = program.post("/api/check", content_type="multipart/form-data",
                       data={"save": (io.BytesIO(orchard_save()), "crowded.xml")})
    assert_not_stored(api, "the report of this check")
    assert count(database_path, "report") == 0
    assert not uploads.exists() or list(uploads.iterdir()) == []


def test_a_players_case_file_and_comment_that_cannot_be_stored_are_503s(check_client, database_path,
                                                                         refuse_writes):
    report_id = checked_report(check_client)
    token = token_of(check_client, f"/reports/{report_id}")
    case_file_url = check_client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token}).headers["Location"]
    refuse_writes()
    assert_not_stored(check_client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token}),
                      "the case file")
    assert_not_stored(check_client.post(case_file_url + "/comments",
                                        data={"csrf_token": token, "author": "Red", "body": "He moved twice."}),
                      "your comment")
    assert count(database_path, "case_file") == 1 and count(database_path, "case_comment") == 0


def test_an_arbiters_ruling_request_and_case_file_that_cannot_be_stored_are_503s(check_client, database_path,
                                                                                  arbiter, refuse_writes):
    report_id = checked_report(check_client)
    sign_in(check_client)
    ruling_url = write_ruling(check_client, report_id, cases="2.2")
    token = token_of(check_client, f"/rulings/new?report={report_id}")
    refuse_writes()
    assert_not_stored(check_client.post("/rulings/", data={"csrf_token": token, "report": report_id,
                                                           "decision": "Kept for later.", "cases": "2.2",
                                                           "status": "ruled"}), "the ruling")
    assert_not_stored(check_client.post(ruling_url, data={"csrf_token": token, "decision": "Changed.",
                                                          "cases": "2.2", "status": "ruled"}),
                      "the ruling's new revision")
    assert_not_stored(check_client.post("/requests/", data={"csrf_token": token, "report": report_id,
                                                            "question": "Does rain stop tokens?",
                                                            "option-A": "always", "option-B": "never"}),
                      "the ruling request")
    assert_not_stored(check_client.post("/case-files/", data={"csrf_token": token, "kind": "save",
                                                              "reports": report_id}), "the case file")
    assert (count(database_path, "ruling"), count(database_path, "ruling_revision")) == (1, 1)
    assert count(database_path, "ruling_request") == 0 and count(database_path, "case_file") == 0


def test_a_removal_of_uploads_that_cannot_be_stored_is_a_503_and_keeps_every_file(check_client, database_path,
                                                                                   arbiter, refuse_writes):
    report_id = checked_report(check_client)
    sign_in(check_client)
    token = token_of(check_client, f"/rulings/new?report={report_id}")
    case_file_url = check_client.post("/case-files/", data={"csrf_token": token, "kind": "save",
                                                            "reports": report_id}).headers["Location"]
    uploads = sorted((Path(check_client.application.instance_path) / "uploads").iterdir())
    refuse_writes()
    assert_not_stored(check_client.post(case_file_url + "/uploads/delete", data={"csrf_token": token}),
                      "the removal of the case file's uploads (every one is still kept)")
    assert all(path.is_file() for path in uploads) and uploads


def test_a_house_rule_that_cannot_be_stored_is_a_503(check_client, database_path, arbiter, refuse_writes):
    sign_in(check_client)
    token = token_of(check_client, "/house-rules/alpha")
    check = html(check_client.get("/house-rules/alpha")).xpath("//select[@name='check']/option/@value")[0]
    assert check_client.post("/house-rules/alpha", data={"csrf_token": token, "check": check, "severity": "warning",
                                                         "reason": "The club plays it softly."}).status_code == 303
    refuse_writes()
    assert_not_stored(check_client.post("/house-rules/alpha", data={"csrf_token": token, "check": check,
                                                                   "severity": "off", "reason": "Not at all."}),
                      "the house rule")
    assert_not_stored(check_client.post("/house-rules/alpha/remove", data={"csrf_token": token, "check": check}),
                      "the house rule's removal (the rule is still in force)")
    with closing(store.connect(database_path)) as connection:
        assert [row[0] for row in connection.execute("SELECT severity FROM house_rule")] == ["warning"]

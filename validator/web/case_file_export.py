"""A case file exported whole: one self-contained HTML document, or JSON (docs/arbitration.md, "Export").

The document is what an arbiter files away or mails to both players: the
case file, each report in order with its verdict, violations, findings,
house rules, what it was checked with and its picture, the rulings and the
players' comments.  It loads nothing: the site's CSS is inlined in a
``<style>`` element, each picture is the stored, cleaned SVG inline, there is
no script, and the site's addresses are written out as text (the permanent
addresses still identify each record).  The JSON holds the same, with each
report's public JSON (the one ``/reports/<id>.json`` serves).  No e-mail
address an upload carried is in either (:mod:`validator.privacy`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from flask import render_template
from markupsafe import Markup

from validator import privacy, retention, store, stored_results
from validator.arbitration import case_files, comments, requests, rulings
from validator.paths import static_dir
from validator.web import arbitration_json, records, reports

EXPORT_VERSION = 1


def _rulings(connection: store.Connection, case_file_id: str) -> list[rulings.Ruling]:
    rows = connection.execute("SELECT id FROM ruling WHERE case_file = ? ORDER BY created_at, id",
                              (case_file_id,)).fetchall()
    return [ruling for ruling in (rulings.load(connection, row[0]) for row in rows) if ruling is not None]


def _ruling_json(connection: store.Connection, ruling: rulings.Ruling) -> dict:
    """The ruling as ``/rulings/<id>.json`` serves it, with the request it answers."""
    answered = requests.load(connection, ruling.request_id) if ruling.request_id else None
    return arbitration_json.ruling_json(ruling, answered)


def _gathered(connection: store.Connection, case_file_id: str):
    found = case_files.load(connection, case_file_id)
    if found is None:
        return None
    filed = [(item, records.load(connection, item.report_id)) for item in found.reports]
    return found, [(item, record) for item, record in filed if record is not None]


def exported_json(connection: store.Connection, case_file_id: str, site_root: str) -> dict | None:
    """The case file as JSON-ready data; None when there is no such case file."""
    gathered = _gathered(connection, case_file_id)
    if gathered is None:
        return None
    found, filed = gathered
    return privacy.scrubbed({
        "export_version": EXPORT_VERSION,
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "case_file": {"id": found.id, "url": f"{site_root}/case-files/{found.id}", "title": found.title,
                      "game": found.game, "kind": found.kind, "opened_at": found.opened_at},
        "reports": [{"position": item.position, "role": item.role,
                     "uploads_removed_at": retention.removed_at(connection, record.id),
                     "report": reports.public_json(record)} for item, record in filed],
        "rulings": [_ruling_json(connection, ruling) for ruling in _rulings(connection, found.id)],
        "comments": [{"author": comment.author, "body": comment.body, "written_at": comment.written_at}
                     for comment in comments.listed(connection, found.id)],
    })


def exported(connection: store.Connection, case_file_id: str, site_root: str,
             picture_of: Callable[[records.Record], object]) -> str | None:
    """The case file as one HTML document that loads nothing; None when there is no such case file."""
    data = exported_json(connection, case_file_id, site_root)
    if data is None:
        return None
    _, filed = _gathered(connection, case_file_id)
    pictures = {record.id: picture_of(record) for _, record in filed}
    return render_template("case_file_records/export.html", data=data, pictures=pictures,
                           violations_of=stored_results.violations_of, findings_of=stored_results.findings_of,
                           css=Markup((static_dir() / "referee.css").read_text(encoding="utf-8")))  # our own file

"""Rulings and ruling requests as JSON (docs/arbitration.md, "JSON"), as their pages show them.

``/rulings/<id>.json`` and ``/requests/<id>.json`` are read by anyone with
the link, like the pages.  Every address in them is absolute
(``addresses.permanent_url``), so a program that keeps the JSON can follow
them later.  No e-mail address is in either (:mod:`validator.privacy`): a
decision, a reason or a player's question may quote one.
"""

from __future__ import annotations

from validator import privacy
from validator.arbitration import requests, rulings
from validator.web.addresses import permanent_url


def _linked(endpoint: str, key: str, value: str | None) -> dict | None:
    return {"id": value, "url": permanent_url(endpoint, **{key: value})} if value else None


def ruling_json(ruling: rulings.Ruling, answered: requests.RulingRequest | None = None) -> dict:
    """The ruling with its cited cases (each with the text kept when cited), exceptions and history."""
    request = _linked("arbitration.ruling_request", "request_id", ruling.request_id)
    if request is not None and answered is not None:
        request.update(number=answered.number, choice=ruling.choice)  # this ruling's own choice
    return privacy.scrubbed({
        "id": ruling.id, "url": permanent_url("arbitration.ruling", ruling_id=ruling.id), "game": ruling.game,
        "status": ruling.status, "arbiter": ruling.arbiter, "decision": ruling.decision,
        "created_at": ruling.created_at, "updated_at": ruling.updated_at, "review_note": ruling.review_note,
        "case_file": _linked("arbitration.case_file", "case_file_id", ruling.case_file),
        "request": request,
        "cases": [citation.number for citation in ruling.citations],
        "citations": [{"number": citation.number,
                       "url": permanent_url("rules.case", game=ruling.game, case=citation.number),
                       "case_text": citation.case_text} for citation in ruling.citations],
        "exceptions": [{"report_id": item.violation.report_id,
                        "report_url": permanent_url("reports.page", report_id=item.violation.report_id),
                        "case": item.violation.case, "rule": item.violation.check,
                        "location": item.violation.location or None, "pieces": list(item.violation.pieces),
                        "reason": item.reason} for item in ruling.exceptions],
        "history": [{"revision": revision.revision, "arbiter": revision.arbiter, "status": revision.status,
                     "decision": revision.decision, "cases": list(revision.cases), "written_at": revision.written_at,
                     "citations": [{"number": citation.number, "case_text": citation.case_text}
                                   for citation in revision.citations]}
                    for revision in ruling.revisions],
    })


def request_json(ruling_request: requests.RulingRequest, answers: list[str]) -> dict:
    """The request with its options, the arbiter's choice and the rulings that answer it."""
    return privacy.scrubbed({
        "id": ruling_request.id, "url": permanent_url("arbitration.ruling_request", request_id=ruling_request.id),
        "game": ruling_request.game, "number": ruling_request.number, "question": ruling_request.question,
        "options": [{"label": option.label, "reading": option.reading} for option in ruling_request.options],
        "choice": ruling_request.choice, "origin": ruling_request.origin,
        "report": _linked("reports.page", "report_id", ruling_request.report_id),
        "case_number": ruling_request.case_number,
        "case_file": _linked("arbitration.case_file", "case_file_id", ruling_request.case_file),
        "opened_by": ruling_request.opened_by, "opened_at": ruling_request.opened_at,
        "rulings": [_linked("arbitration.ruling", "ruling_id", ruling_id) for ruling_id in answers],
    })

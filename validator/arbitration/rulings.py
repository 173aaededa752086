"""Rulings: an arbiter's decision, the cases it cites, its status and history, and the violations it excepts.

Each cited case must be in the game's imported rulebook; the ruling keeps the
case's text as it read when cited, so a later import cannot change what the
ruling was made under.  When a re-import changes the text of a cited case,
``flag_changed_citations`` (called from the import's own transaction) marks
the ruling for review.  Every save is a revision, kept in order with the
case texts it was made under.  An edit keeps the kept text of each case it
cites again; a case newly cited, or every case when the arbiter re-cites
them (``recite``), takes the rulebook's current text.  The review mark is
cleared when no kept text differs from the rulebook's any more.

An exception names one violation of a stored report by its report, case,
check (the report's ``rule`` id), location and pieces, with a reason; the
report page then shows it as excepted, with the ruling's link.
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
from dataclasses import dataclass, field

from validator import store, stored_results
from validator.arbitration import clock, requests
from validator.cases import CaseNumber, CaseNumberError
from validator.errors import InputError

STATUSES = ("open", "ruled", "withdrawn")
ID_BYTES = 16
LONGEST_DECISION = 20_000
LONGEST_REASON = 2_000
LONGEST_QUERY = 200
_CASE_SEPARATORS = re.compile(r"[\s,;]+")


class RulingError(InputError):
    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


@dataclass(frozen=True)
class ViolationKey:
    """One violation of a stored report, as a ruling names it."""

    report_id: str
    case: str
    check: str
    location: str
    pieces: tuple[str, ...]

    @classmethod
    def of_item(cls, report_id: str, item: dict) -> ViolationKey:
        return cls(report_id, str(item.get("case", "")), str(item.get("rule", "")), str(item.get("location") or ""),
                   tuple(str(piece) for piece in item.get("pieces", ())))


@dataclass(frozen=True)
class ExceptedViolation:
    """A violation a ruling accepts as a justified exception, with the reason."""

    violation: ViolationKey
    reason: str
    ruling_id: str = ""


@dataclass(frozen=True)
class Citation:
    number: str
    case_text: str


@dataclass(frozen=True)
class Revision:
    revision: int
    arbiter: str
    status: str
    decision: str
    cases: tuple[str, ...]
    written_at: str
    citations: tuple[Citation, ...] = ()  # the texts it was made under; empty for a revision older than their keeping


@dataclass(frozen=True)
class Ruling:
    id: str
    game: str
    case_file: str | None
    request_id: str | None
    arbiter: str
    status: str
    decision: str
    created_at: str
    updated_at: str
    review_note: str | None
    choice: str | None = None  # the option it chose of the request it answers
    citations: tuple[Citation, ...] = ()
    exceptions: tuple[ExceptedViolation, ...] = ()
    revisions: tuple[Revision, ...] = field(default=())


def parsed_cases(text: str) -> list[str]:
    """The case numbers written in a field ("6.21, 11.353E"), each refused with a sentence when it is no number."""
    numbers = []
    for word in (word for word in _CASE_SEPARATORS.split(text.strip()) if word):
        try:
            number = str(CaseNumber.parse(word))
        except CaseNumberError:
            raise RulingError(f"{word[:40]!r} is not a case number; write case numbers such as 6.21 or 11.353E, "
                              "separated by commas.") from None
        if number not in numbers:
            numbers.append(number)
    return numbers


def case_text(connection: store.Connection, game: str, number: str) -> str | None:
    """The case's title and text as the imported rulebook holds it now; None when it is not there."""
    row = connection.execute("SELECT title, blocks FROM rule_case WHERE game = ? AND number = ?",
                             (game, number)).fetchone()
    if row is None:
        return None
    parts = [row["title"]]
    for block in json.loads(row["blocks"]):
        parts.append(block.get("text", ""))
        for part in block.get("table", ()):
            parts.extend(" ".join(cells) for cells in part.get("rows", ()))
    return "\n".join(part for part in parts if part)


def _citations(connection: store.Connection, game: str, numbers: list[str]) -> list[Citation]:
    if connection.execute("SELECT 1 FROM rulebook WHERE game = ?", (game,)).fetchone() is None:
        raise RulingError(f"The rulebook of {game} is not imported, so no case can be cited; import it first "
                          f"(referee rules import {game} FILE...).")
    citations = []
    for number in numbers:
        text = case_text(connection, game, number)
        if text is None:
            raise RulingError(f"Case {number} is not in the imported rulebook of {game}; cite cases the rulebook "
                              "has (its contents page lists them).")
        citations.append(Citation(number, text))
    return citations


def _checked(decision: str, status: str) -> str:
    decision = decision.replace("\r\n", "\n").strip()
    if not decision:
        raise RulingError("The decision is empty; write what the arbiter decided and why.")
    if len(decision) > LONGEST_DECISION:
        raise RulingError(f"The decision has {len(decision)} characters; shorten it to {LONGEST_DECISION} at most.")
    if status not in STATUSES:
        raise RulingError(f"The status {status[:20]!r} is not one of {', '.join(STATUSES)}; choose one of them.")
    return decision


def _checked_exception(connection: store.Connection, game: str, exception: ExceptedViolation) -> ExceptedViolation:
    key = exception.violation
    row = connection.execute("SELECT game, report FROM report WHERE id = ?", (key.report_id,)).fetchone()
    if row is None or row["game"] != game:
        raise RulingError(f"There is no report {key.report_id[:40]!r} of {game}; an exception names a violation "
                          "of a stored report of the ruling's game.")
    violations = stored_results.violations_of(json.loads(row["report"]))  # a moves report's are in its steps
    if key not in {ViolationKey.of_item(key.report_id, item) for item in violations}:
        raise RulingError(f"The report {key.report_id} has no such violation of case {key.case}; choose one of "
                          "the violations its page lists.")
    reason = exception.reason.strip()
    if not reason or len(reason) > LONGEST_REASON:
        raise RulingError(f"An exception needs a reason of 1 to {LONGEST_REASON} characters: say why the "
                          "violation is justified.")
    return ExceptedViolation(key, reason)


def write(connection: store.Connection, *, arbiter: str, game: str, decision: str, cases: list[str],
          status: str = "ruled", case_file: str | None = None, request_id: str | None = None,
          exceptions: list[ExceptedViolation] = (), choice: str | None = None) -> Ruling:
    """Store a new ruling and its first revision; every cited case, excepted violation and the choice checked first.

    ``choice`` is the option it chooses of the request it answers, stored with the ruling in one transaction.
    """
    decision = _checked(decision, status)
    ruling_id, stamp = secrets.token_urlsafe(ID_BYTES), clock.now()
    with store.write_transaction(connection):
        citations = _citations(connection, game, cases)
        checked = [_checked_exception(connection, game, exception) for exception in exceptions]
        if choice:
            _check_choice(connection, request_id, choice)
        connection.execute(
            "INSERT INTO ruling (id, game, case_file, request_id, arbiter, status, decision, created_at, updated_at,"
            " choice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ruling_id, game, case_file, request_id, arbiter, status, decision, stamp, stamp, choice or None),
        )
        _store_citations(connection, ruling_id, game, citations)
        _store_revision(connection, ruling_id, 1, arbiter, status, decision, citations, stamp)
        for exception in checked:
            key = exception.violation
            connection.execute(
                "INSERT INTO ruling_exception (ruling, report_id, case_number, check_name, location, pieces, reason)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (ruling_id, key.report_id, key.case, key.check, key.location, json.dumps(list(key.pieces)),
                 exception.reason),
            )
    return load(connection, ruling_id)


def _check_choice(connection: store.Connection, request_id: str | None, choice: str) -> None:
    found = requests.load(connection, request_id) if request_id else None
    if found is None:
        raise RulingError("Only a ruling that answers a request chooses an option; answer it from the request's page.")
    if choice not in {option.label for option in found.options}:
        raise RulingError(f"Request {found.number} has no option {choice[:5]!r}; choose one of "
                          f"{', '.join(option.label for option in found.options)}.")


def edit(connection: store.Connection, ruling_id: str, *, arbiter: str, decision: str, cases: list[str],
         status: str, recite: bool = False) -> Ruling:
    """Save a new revision: a case cited before keeps its kept text unless ``recite``; others take the current one.

    The review mark is cleared once every kept text reads as the rulebook does now.
    """
    decision = _checked(decision, status)
    stamp = clock.now()
    with store.write_transaction(connection):
        row = connection.execute("SELECT game FROM ruling WHERE id = ?", (ruling_id,)).fetchone()
        if row is None:
            raise RulingError("There is no ruling at this address; use the link the arbiter gave you.")
        game = row["game"]
        kept = {} if recite else {item["number"]: item["case_text"] for item in connection.execute(
            "SELECT number, case_text FROM ruling_citation WHERE ruling = ?", (ruling_id,))}
        fresh = iter(_citations(connection, game, [number for number in cases if number not in kept]))
        citations = [Citation(number, kept[number]) if number in kept else next(fresh) for number in cases]
        current = all(case_text(connection, game, citation.number) == citation.case_text for citation in citations)
        revision = connection.execute("SELECT COALESCE(MAX(revision), 0) + 1 FROM ruling_revision WHERE ruling = ?",
                                      (ruling_id,)).fetchone()[0]
        connection.execute(
            "UPDATE ruling SET arbiter = ?, status = ?, decision = ?, updated_at = ?,"
            " review_note = CASE WHEN ? THEN NULL ELSE review_note END WHERE id = ?",
            (arbiter, status, decision, stamp, current, ruling_id),
        )
        connection.execute("DELETE FROM ruling_citation WHERE ruling = ?", (ruling_id,))
        _store_citations(connection, ruling_id, game, citations)
        _store_revision(connection, ruling_id, revision, arbiter, status, decision, citations, stamp)
    return load(connection, ruling_id)


def _store_citations(connection, ruling_id: str, game: str, citations: list[Citation]) -> None:
    for citation in citations:
        connection.execute("INSERT INTO ruling_citation (ruling, game, number, case_text) VALUES (?, ?, ?, ?)",
                           (ruling_id, game, citation.number, citation.case_text))


def _store_revision(connection, ruling_id, revision, arbiter, status, decision, citations, stamp) -> None:
    connection.execute(
        "INSERT INTO ruling_revision (ruling, revision, arbiter, status, decision, cases, written_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (ruling_id, revision, arbiter, status, decision, json.dumps([citation.number for citation in citations]),
         stamp),
    )
    for citation in citations:
        connection.execute("INSERT INTO ruling_revision_citation (ruling, revision, number, case_text)"
                           " VALUES (?, ?, ?, ?)", (ruling_id, revision, citation.number, citation.case_text))


_COLUMNS = "id, game, case_file, request_id, arbiter, status, decision, created_at, updated_at, review_note, choice"


def _ruling(row, citations=(), exceptions=(), revisions=()) -> Ruling:
    return Ruling(*(row[name] for name in _COLUMNS.split(", ")), citations=tuple(citations),
                  exceptions=tuple(exceptions), revisions=tuple(revisions))


def load(connection: store.Connection, ruling_id: str) -> Ruling | None:
    row = connection.execute(f"SELECT {_COLUMNS} FROM ruling WHERE id = ?", (ruling_id,)).fetchone()
    if row is None:
        return None
    citations = [Citation(item["number"], item["case_text"]) for item in connection.execute(
        "SELECT number, case_text FROM ruling_citation WHERE ruling = ?", (ruling_id,))]
    citations.sort(key=lambda citation: CaseNumber.parse(citation.number))
    exceptions = [_exception(item) for item in connection.execute(
        "SELECT ruling, report_id, case_number, check_name, location, pieces, reason FROM ruling_exception"
        " WHERE ruling = ? ORDER BY report_id, case_number", (ruling_id,))]
    texts: dict[int, dict[str, str]] = {}
    for item in connection.execute("SELECT revision, number, case_text FROM ruling_revision_citation"
                                   " WHERE ruling = ?", (ruling_id,)):
        texts.setdefault(item["revision"], {})[item["number"]] = item["case_text"]
    revisions = []
    for item in connection.execute("SELECT revision, arbiter, status, decision, cases, written_at FROM"
                                   " ruling_revision WHERE ruling = ? ORDER BY revision", (ruling_id,)):
        numbers, made_under = tuple(json.loads(item["cases"])), texts.get(item["revision"], {})
        revisions.append(Revision(item["revision"], item["arbiter"], item["status"], item["decision"], numbers,
                                  item["written_at"], tuple(Citation(number, made_under[number])
                                                            for number in numbers if number in made_under)))
    return _ruling(row, citations, exceptions, revisions)


def _exception(item) -> ExceptedViolation:
    key = ViolationKey(item["report_id"], item["case_number"], item["check_name"], item["location"],
                       tuple(json.loads(item["pieces"])))
    return ExceptedViolation(key, item["reason"], item["ruling"])


def exceptions_of_report(connection: store.Connection, report_id: str) -> dict[ViolationKey, ExceptedViolation]:
    """The report's excepted violations, by key, from rulings that are not withdrawn."""
    rows = connection.execute(
        "SELECT ruling_exception.ruling, report_id, case_number, check_name, location, pieces, reason"
        " FROM ruling_exception JOIN ruling ON ruling.id = ruling_exception.ruling"
        " WHERE report_id = ? AND ruling.status <> 'withdrawn' ORDER BY ruling.created_at",
        (report_id,),
    ).fetchall()
    found: dict[ViolationKey, ExceptedViolation] = {}
    for row in rows:
        exception = _exception(row)
        found.setdefault(exception.violation, exception)
    return found


def search(connection: store.Connection, *, game: str = "", case: str = "", text: str = "",
           limit: int = 100, offset: int = 0) -> list[Ruling]:
    """Rulings of a game, citing a case (exactly), whose decision holds the text; newest first, ``offset`` on.

    The text is matched in Python, both sides case-folded, so SQLite (whose LOWER() folds ASCII only) and
    PostgreSQL find the same rulings for any letters.
    """
    conditions, parameters = [], []
    if game:
        conditions.append("game = ?")
        parameters.append(game)
    if case:
        conditions.append("id IN (SELECT ruling FROM ruling_citation WHERE number = ?)")
        parameters.append(case)
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    query = f"SELECT {_COLUMNS} FROM ruling{where} ORDER BY updated_at DESC, id"
    if not text:
        rows = connection.execute(f"{query} LIMIT ? OFFSET ?", (*parameters, limit, offset)).fetchall()
        return [_ruling(row) for row in rows]
    needle = text[:LONGEST_QUERY].casefold()
    matching = (row for row in connection.execute(query, parameters) if needle in row["decision"].casefold())
    return [_ruling(row) for row in itertools.islice(matching, offset, offset + limit)]


def of_case_file(connection: store.Connection, case_file_id: str) -> list[Ruling]:
    """Every ruling written on one case file, newest first (however many rulings its game has)."""
    rows = connection.execute(f"SELECT {_COLUMNS} FROM ruling WHERE case_file = ? ORDER BY updated_at DESC, id",
                              (case_file_id,)).fetchall()
    return [_ruling(row) for row in rows]


def citing(connection: store.Connection, game: str, number: str) -> list[Ruling]:
    """The rulings that cite one case of a game, newest first (the case page's list)."""
    return search(connection, game=game, case=number)


def flag_changed_citations(connection: store.Connection, game: str) -> int:
    """Mark for review each ruling citing a case of ``game`` the new import changed; call in its transaction."""
    rows = connection.execute(
        "SELECT ruling_citation.ruling, ruling_citation.number, ruling_citation.case_text"
        " FROM ruling_citation JOIN ruling ON ruling.id = ruling_citation.ruling"
        " WHERE ruling_citation.game = ? AND ruling.status <> 'withdrawn'",
        (game,),
    ).fetchall()
    changed: dict[str, list[str]] = {}
    for row in rows:
        if case_text(connection, game, row["number"]) != row["case_text"]:
            changed.setdefault(row["ruling"], []).append(row["number"])
    for ruling_id, numbers in changed.items():
        listed = ", ".join(sorted(numbers, key=CaseNumber.parse))
        note = (f"The rulebook was imported again on {clock.now()} and the text of {listed} changed (or is gone); "
                "check that the ruling still holds, then save it again.")
        connection.execute("UPDATE ruling SET review_note = ?, updated_at = ? WHERE id = ?",
                           (note, clock.now(), ruling_id))
    return len(changed)


def needing_review(connection: store.Connection) -> list[Ruling]:
    rows = connection.execute(f"SELECT {_COLUMNS} FROM ruling WHERE review_note IS NOT NULL ORDER BY updated_at DESC"
                              ).fetchall()
    return [_ruling(row) for row in rows]

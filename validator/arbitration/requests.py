"""Ruling requests: a question put to the arbiters, numbered per game, with the readings being considered.

A request comes from a case a report marks "unchecked" (a finding Referee
could not decide) or from a player's question.  It holds the question, the
options (A, B, C ... each with the reading it implies) and, once decided,
the arbiter's choice: the option chosen by its newest answering ruling that
is not withdrawn (each ruling keeps its own choice, ``ruling.choice``).  Numbers are
per game, from 1: the next is ``COALESCE(MAX(number), 0) + 1`` read in the
write transaction, and ``UNIQUE (game, number)`` guards it.
"""

from __future__ import annotations

import json
import secrets
import string
from dataclasses import dataclass

from validator import store
from validator.arbitration import clock
from validator.cases import CaseNumber, CaseNumberError
from validator.errors import InputError

ORIGINS = ("unchecked", "question")
LONGEST_QUESTION = 4_000
LONGEST_READING = 2_000
MOST_OPTIONS = 6
LABELS = string.ascii_uppercase[:MOST_OPTIONS]


class RequestError(InputError):
    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


@dataclass(frozen=True)
class Option:
    label: str
    reading: str


@dataclass(frozen=True)
class RulingRequest:
    id: str
    game: str
    number: int
    question: str
    options: tuple[Option, ...]
    choice: str | None
    origin: str
    report_id: str | None
    case_number: str | None
    case_file: str | None
    opened_by: str
    opened_at: str


def options_of(readings: list[str]) -> tuple[Option, ...]:
    """Options for the readings given in the order A, B, C ...: each keeps its letter, empty ones are left out."""
    if len(readings) > MOST_OPTIONS:
        raise RequestError(f"{len(readings)} options were given; a request weighs {MOST_OPTIONS} at most.")
    given = [Option(label, reading.strip()) for label, reading in zip(LABELS, readings, strict=False)
             if reading.strip()]
    for option in given:
        if len(option.reading) > LONGEST_READING:
            raise RequestError(f"Option {option.label} has {len(option.reading)} characters; shorten it to "
                               f"{LONGEST_READING} at most.")
    return tuple(given)


def _checked_case(connection: store.Connection, game: str, case_number: str) -> str:
    """The unchecked case a request comes from, as a case of the game's imported rulebook."""
    try:
        number = str(CaseNumber.parse(case_number.strip()))
    except CaseNumberError:
        raise RequestError(f"{case_number[:40]!r} is not a case number; choose the unchecked case from the "
                           "report's list.") from None
    if connection.execute("SELECT 1 FROM rule_case WHERE game = ? AND number = ?", (game, number)).fetchone() is None:
        raise RequestError(f"Case {number} is not in the imported rulebook of {game}; a request from an "
                           "unchecked case names a case the rulebook has (import it first if it is not).")
    return number


def open_request(connection: store.Connection, *, game: str, question: str, readings: list[str], opened_by: str,
                 origin: str = "question", report_id: str | None = None, case_number: str | None = None,
                 case_file: str | None = None) -> RulingRequest:
    question = question.replace("\r\n", "\n").strip()
    if not question or len(question) > LONGEST_QUESTION:
        raise RequestError(f"The question needs 1 to {LONGEST_QUESTION} characters: say what is to be decided.")
    if origin not in ORIGINS:
        raise RequestError(f"A request comes from {' or '.join(ORIGINS)}, not {origin[:20]!r}.")
    options = options_of(readings)
    if len(options) < 2:
        raise RequestError("Give at least two options (A and B), each with the reading it implies.")
    request_id, stamp = secrets.token_urlsafe(16), clock.now()
    with store.write_transaction(connection):
        if report_id is not None and connection.execute(
            "SELECT 1 FROM report WHERE id = ? AND game = ?", (report_id, game)
        ).fetchone() is None:
            raise RequestError(f"There is no report {report_id[:40]!r} of {game}; open the request from its page.")
        if case_number is not None:
            case_number = _checked_case(connection, game, case_number)
        number = connection.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM ruling_request WHERE game = ?",
                                    (game,)).fetchone()[0]
        connection.execute(
            "INSERT INTO ruling_request (id, game, number, question, options, origin, report_id, case_number,"
            " case_file, opened_by, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (request_id, game, number, question, json.dumps([[o.label, o.reading] for o in options]), origin,
             report_id, case_number, case_file, opened_by, stamp),
        )
    return load(connection, request_id)


_CHOICE = ("(SELECT ruling.choice FROM ruling WHERE ruling.request_id = ruling_request.id AND ruling.status <>"
           " 'withdrawn' AND ruling.choice IS NOT NULL ORDER BY ruling.created_at DESC, ruling.id DESC LIMIT 1)")
_COLUMNS = (f"id, game, number, question, options, {_CHOICE} AS choice, origin, report_id, case_number, case_file,"
            " opened_by, opened_at")


def _request(row) -> RulingRequest:
    options = tuple(Option(label, reading) for label, reading in json.loads(row["options"]))
    return RulingRequest(row["id"], row["game"], row["number"], row["question"], options, row["choice"],
                         row["origin"], row["report_id"], row["case_number"], row["case_file"], row["opened_by"],
                         row["opened_at"])


def load(connection: store.Connection, request_id: str) -> RulingRequest | None:
    row = connection.execute(f"SELECT {_COLUMNS} FROM ruling_request WHERE id = ?", (request_id,)).fetchone()
    return _request(row) if row is not None else None


def listed(connection: store.Connection, game: str = "") -> list[RulingRequest]:
    where, parameters = (" WHERE game = ?", (game,)) if game else ("", ())
    rows = connection.execute(f"SELECT {_COLUMNS} FROM ruling_request{where} ORDER BY game, number",
                              parameters).fetchall()
    return [_request(row) for row in rows]

"""Case files: the positions in dispute (their stored reports, in order, each with its role) and their records.

A case file holds one save, a before/after pair, a log, or a chain of saves;
its reports are kept in order with their role (``save``, ``before``,
``after``, ``log``, ``step``; ``chain`` for the one report that judges a
whole chain of saves).  Its id is random and URL-safe, so its address
is permanent and cannot be guessed; case files are listed to arbiters only.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from validator import store
from validator.arbitration import clock
from validator.errors import InputError

ID_BYTES = 16
LONGEST_TITLE = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # as comments drop them; whitespace among them becomes a space
# Each kind of case file, and the roles of its reports in order.
KINDS = {
    "save": "one position",
    "pair": "a position before and after a move",
    "log": "a log of moves",
    "chain": "a chain of positions",
}


class CaseFileError(InputError):
    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


@dataclass(frozen=True)
class FiledReport:
    position: int
    report_id: str
    role: str
    source_name: str


@dataclass(frozen=True)
class CaseFile:
    id: str
    game: str
    title: str
    kind: str
    opened_at: str
    reports: tuple[FiledReport, ...] = ()


def roles_for(kind: str, count: int) -> list[str]:
    """The roles of ``count`` reports in a case file of ``kind``, or a sentence saying what the kind needs."""
    if kind == "save" and count == 1:
        return ["save"]
    if kind == "pair" and count == 2:
        return ["before", "after"]
    if kind == "log" and count == 1:
        return ["log"]
    if kind == "chain" and count == 1:
        return ["chain"]
    if kind == "chain" and count >= 2:
        return ["step"] * count
    needs = {"save": "one report", "pair": "two reports (before, then after)", "log": "one report (of the log)",
             "chain": "one report of the chain, or two reports or more in the order of play"}
    if kind not in needs:
        raise CaseFileError(f"A case file of kind {kind!r} cannot be opened; the kinds are {', '.join(KINDS)}.")
    given = f"{count} {'was' if count == 1 else 'were'} given"
    raise CaseFileError(f"A case file of {KINDS[kind]} holds {needs[kind]}; {given}.")


def open_case_file(connection: store.Connection, title: str, kind: str, report_ids: list[str]) -> CaseFile:
    """Open a case file on stored reports of one game; a missing report or a second game is refused."""
    title = " ".join(_CONTROL.sub(" ", title).split())[:LONGEST_TITLE]
    roles = roles_for(kind, len(report_ids))
    with store.write_transaction(connection):
        games = []
        for report_id in report_ids:
            row = connection.execute("SELECT game FROM report WHERE id = ?", (report_id,)).fetchone()
            if row is None:
                raise CaseFileError(f"There is no report with the id {report_id!r}; give the ids its checks gave you.")
            games.append(row["game"])
        if len(set(games)) > 1:
            raise CaseFileError("The reports are of different games; a case file holds positions of one game.")
        case_file = CaseFile(secrets.token_urlsafe(ID_BYTES), games[0], title or "Untitled dispute", kind, clock.now())
        connection.execute("INSERT INTO case_file (id, game, title, kind, opened_at) VALUES (?, ?, ?, ?, ?)",
                           (case_file.id, case_file.game, case_file.title, kind, case_file.opened_at))
        for position, (report_id, role) in enumerate(zip(report_ids, roles, strict=True), start=1):
            connection.execute(
                "INSERT INTO case_file_report (case_file, position, report_id, role) VALUES (?, ?, ?, ?)",
                (case_file.id, position, report_id, role),
            )
    return load(connection, case_file.id)


def load(connection: store.Connection, case_file_id: str) -> CaseFile | None:
    row = connection.execute("SELECT id, game, title, kind, opened_at FROM case_file WHERE id = ?",
                             (case_file_id,)).fetchone()
    if row is None:
        return None
    filed = connection.execute(
        "SELECT case_file_report.position, case_file_report.report_id, case_file_report.role, report.source_name "
        "FROM case_file_report JOIN report ON report.id = case_file_report.report_id "
        "WHERE case_file_report.case_file = ? ORDER BY case_file_report.position",
        (case_file_id,),
    ).fetchall()
    return CaseFile(row["id"], row["game"], row["title"], row["kind"], row["opened_at"],
                    tuple(FiledReport(item[0], item[1], item[2], item[3]) for item in filed))


def listed(connection: store.Connection) -> list[CaseFile]:
    """Every case file, newest first (the arbiters' list)."""
    rows = connection.execute(
        "SELECT id, game, title, kind, opened_at FROM case_file ORDER BY opened_at DESC, id"
    ).fetchall()
    return [CaseFile(row["id"], row["game"], row["title"], row["kind"], row["opened_at"]) for row in rows]

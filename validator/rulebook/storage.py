"""Saving and loading imported rulebooks, and searching them.

A save replaces a game's rulebook in one ``BEGIN IMMEDIATE`` transaction, so
a failed import never leaves half a rulebook behind.  Search runs on SQLite
FTS5, or on PostgreSQL's own full-text search (``tsvector``,
``websearch_to_tsquery``, ``ts_headline`` with the same highlight marks); the
query a user types is turned into quoted terms, never passed through as
full-text syntax, and on PostgreSQL a query that is a case number is looked up
by that number exactly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from validator.cases import CaseNumber
from validator.rulebook.model import TABLE, Block, Case, Reference, Rulebook, TablePart, Unplaced
from validator.store import POSTGRESQL, Connection, write_transaction

# Control characters that cannot occur in imported text mark the highlights.
HIGHLIGHT_START = "\x02"
HIGHLIGHT_END = "\x03"


@dataclass(frozen=True)
class ImportStatus:
    game: str
    imported_at: str
    sources: list[str]
    cases: int


@dataclass(frozen=True)
class SearchHit:
    number: CaseNumber
    title: str
    snippet: str  # plain text with HIGHLIGHT_START / HIGHLIGHT_END around matches


def save(connection: Connection, book: Rulebook) -> None:
    """Replace the game's rulebook with ``book``, all or nothing."""
    with write_transaction(connection):
        replace(connection, book)


def replace(connection: Connection, book: Rulebook) -> None:
    """Replace the game's rulebook with ``book`` inside the caller's write transaction.

    For a caller that must check something in the same transaction, such as
    that the game still exists (validator/catalogue.py).
    """
    book.imported_at = book.imported_at or datetime.now(UTC).isoformat(timespec="microseconds")
    delete(connection, book.game)
    connection.execute(
        "INSERT INTO rulebook (game, imported_at, sources, front_matter, unplaced, repairs)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            book.game,
            book.imported_at,
            json.dumps(book.sources),
            json.dumps([_block_to_json(block) for block in book.front_matter]),
            json.dumps([unplaced.__dict__ for unplaced in book.unplaced]),
            json.dumps(book.repairs),
        ),
    )
    for case in book.ordered():
        connection.execute(
            "INSERT INTO rule_case (game, number, label, title, kind, parent, source, line,"
            " notes, blocks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                book.game,
                str(case.number),
                case.label,
                case.title,
                case.kind,
                str(case.parent) if case.parent else None,
                case.source,
                case.line,
                json.dumps(case.notes),
                json.dumps([_block_to_json(block) for block in case.blocks]),
            ),
        )
        connection.execute(
            "INSERT INTO rule_search (game, number, title, body) VALUES (?, ?, ?, ?)",
            (book.game, str(case.number), case.title, searchable_text(case)),
        )


def delete(connection: Connection, game: str) -> None:
    """Remove the game's rulebook, if any, inside the caller's write transaction."""
    connection.execute("DELETE FROM rule_search WHERE game = ?", (game,))
    connection.execute("DELETE FROM rulebook WHERE game = ?", (game,))  # its cases go with it


def load(connection: Connection, game: str) -> Rulebook | None:
    """The game's imported rulebook, or None before the first import."""
    head = connection.execute("SELECT * FROM rulebook WHERE game = ?", (game,)).fetchone()
    if head is None:
        return None
    book = Rulebook(
        game=game,
        sources=json.loads(head["sources"]),
        front_matter=[_block_from_json(data) for data in json.loads(head["front_matter"])],
        unplaced=[Unplaced(**data) for data in json.loads(head["unplaced"])],
        repairs=json.loads(head["repairs"]),
        imported_at=head["imported_at"],
    )
    for row in connection.execute("SELECT * FROM rule_case WHERE game = ?", (game,)):
        number = CaseNumber.parse(row["number"])
        book.cases[number] = Case(
            number=number,
            label=row["label"],
            title=row["title"],
            kind=row["kind"],
            parent=CaseNumber.parse(row["parent"]) if row["parent"] else None,
            blocks=[_block_from_json(data) for data in json.loads(row["blocks"])],
            source=row["source"],
            line=row["line"],
            notes=json.loads(row["notes"]),
        )
    return book


def import_stamp(connection: Connection, game: str) -> str | None:
    """When the game's rulebook was imported: a cheap key for caching a loaded book."""
    row = connection.execute("SELECT imported_at FROM rulebook WHERE game = ?", (game,)).fetchone()
    return row["imported_at"] if row else None


def statuses(connection: Connection) -> dict[str, ImportStatus]:
    """Every imported game's status, by game id."""
    rows = connection.execute(
        "SELECT r.game, r.imported_at, r.sources, COUNT(c.number) AS cases"
        " FROM rulebook r LEFT JOIN rule_case c ON c.game = r.game GROUP BY r.game"
    )
    return {
        row["game"]: ImportStatus(
            row["game"], row["imported_at"], json.loads(row["sources"]), row["cases"]
        )
        for row in rows
    }


def search(connection: Connection, game: str, query: str, limit: int = 50) -> list[SearchHit]:
    """Cases whose title or text hold every word of ``query``, best first."""
    if connection.dialect == POSTGRESQL:
        return _search_postgresql(connection, game, query, limit)
    expression = fts_expression(query)
    if not expression:
        return []
    rows = connection.execute(
        "SELECT number, title, snippet(rule_search, 3, ?, ?, ' … ', 24) AS snippet"
        " FROM rule_search WHERE rule_search MATCH ? AND game = ?"
        " ORDER BY bm25(rule_search, 0, 0, 5.0, 1.0) LIMIT ?",
        (HIGHLIGHT_START, HIGHLIGHT_END, expression, game, limit),
    )
    return [SearchHit(CaseNumber.parse(row["number"]), row["title"], row["snippet"]) for row in rows]


def fts_expression(query: str) -> str:
    """Each word of the query as a quoted FTS5 term; the last one also matches as a prefix."""
    words = re.findall(r"\w+", query)
    if not words:
        return ""
    terms = [f'"{word}"' for word in words]
    terms[-1] += "*"
    return " ".join(terms)


# ts_headline's options: our highlight marks, and about as much text around them as FTS5's snippet gives.
_HEADLINE = (f"StartSel={HIGHLIGHT_START}, StopSel={HIGHLIGHT_END}, MaxWords=24, MinWords=12, "
             'MaxFragments=2, FragmentDelimiter=" … "')
# ts_headline's parser takes <...> for markup and drops it, with the words inside; the text is
# highlighted with these characters standing in for < > & (control characters, never in imported text).
_MARKUP = "<>&"
_STAND_INS = "\x04\x05\x06"
_RESTORED = str.maketrans(_STAND_INS, _MARKUP)


def _search_postgresql(connection: Connection, game: str, query: str, limit: int) -> list[SearchHit]:
    """Search on PostgreSQL: a case number exactly; else every word, quoted, the last one also as a prefix."""
    number = CaseNumber.try_parse(query.strip())
    if number is not None:
        row = connection.execute(
            "SELECT title, body FROM rule_search WHERE game = ? AND number = ?", (game, str(number))
        ).fetchone()
        return [SearchHit(number, row["title"], " ".join(row["body"].split()[:24]))] if row else []
    words = re.findall(r"\w+", query)
    if not words:
        return []
    # Each word in double quotes is a term to websearch_to_tsquery, never an operator (or, -, a phrase).
    expression = "websearch_to_tsquery('english', ?)"
    parameters: list[object] = [" ".join(f'"{word}"' for word in words)]
    last = words[-1]
    if re.fullmatch(r"[^\W_]+", last):  # letters and digits only, so the prefix term is one lexeme
        # A last word English drops (a stop word: the "up" of "Set-Up") is no prefix to require either.
        expression = ("(websearch_to_tsquery('english', ?) && CASE WHEN numnode(websearch_to_tsquery('english', ?))"
                      " = 0 THEN websearch_to_tsquery('english', ?)"
                      " ELSE (websearch_to_tsquery('english', ?) || to_tsquery('simple', ?)) END)")
        parameters = [" ".join(f'"{word}"' for word in words[:-1]), *[f'"{last}"'] * 3, f"{last.lower()}:*"]
    rows = connection.execute(
        f"WITH wanted AS (SELECT {expression} AS query)"
        " SELECT number, title, ts_headline('english', translate(body, ?, ?), wanted.query, ?) AS snippet"
        " FROM rule_search, wanted WHERE game = ? AND document @@ wanted.query"
        " ORDER BY ts_rank(document, wanted.query) DESC, number LIMIT ?",
        (*parameters, _MARKUP, _STAND_INS, _HEADLINE, game, limit),
    )
    return [SearchHit(CaseNumber.parse(row["number"]), row["title"], row["snippet"].translate(_RESTORED))
            for row in rows]


def searchable_text(case: Case) -> str:
    parts = []
    for block in case.blocks:
        if block.kind == TABLE:
            for part in block.table:
                parts.append(" ".join([part.title, *part.groups, *part.header]))
                parts.extend(" ".join(row) for row in part.rows)
        parts.append(block.text)
    return "\n".join(part for part in parts if part)


def _block_to_json(block: Block) -> dict:
    data: dict = {"kind": block.kind, "text": block.text, "line": block.line}
    if block.depth:
        data["depth"] = block.depth
    if block.references:
        data["references"] = [
            [reference.start, reference.end, str(reference.target), reference.resolved]
            for reference in block.references
        ]
    if block.table:
        data["table"] = [
            {"title": part.title, "groups": part.groups, "header": part.header, "rows": part.rows}
            for part in block.table
        ]
    if block.item is not None:
        data["item"] = str(block.item)
    return data


def _block_from_json(data: dict) -> Block:
    return Block(
        kind=data["kind"],
        text=data["text"],
        line=data["line"],
        depth=data.get("depth", 0),
        references=[
            Reference(start, end, CaseNumber.parse(target), resolved)
            for start, end, target, resolved in data.get("references", [])
        ],
        table=tuple(
            TablePart(
                title=part["title"],
                groups=tuple(part["groups"]),
                header=tuple(part["header"]),
                rows=tuple(tuple(row) for row in part["rows"]),
            )
            for part in data.get("table", [])
        ),
        item=CaseNumber.parse(data["item"]) if data.get("item") else None,
    )

"""Players' comments on a case file: no sign-in, plain text only, length-capped, rate-limited per client address.

Comments are stored as the text given (control characters other than line
breaks removed) and always shown escaped; nothing in them is markup.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from validator import store
from validator.arbitration import clock, counters
from validator.errors import InputError

LONGEST_BODY = 4000
LONGEST_AUTHOR = 80
DEFAULT_LIMIT = counters.Limit(count=10, seconds=3600)
ACTION = "comment"
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


class CommentError(InputError):
    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


@dataclass(frozen=True)
class Comment:
    id: str
    case_file: str
    author: str
    body: str
    written_at: str


def plain(text: str) -> str:
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n")).strip()


def add(connection: store.Connection, case_file_id: str, author: str, body: str, client: str,
        limit: counters.Limit = DEFAULT_LIMIT) -> Comment:
    """Store a comment; refused with a sentence when empty, too long or past the client's limit."""
    author, body = " ".join(plain(author).split()), plain(body)
    if not body:
        raise CommentError("The comment is empty; write what you want the arbiter to know.")
    if len(body) > LONGEST_BODY:
        raise CommentError(f"The comment has {len(body)} characters; shorten it to {LONGEST_BODY} at most.")
    if not author:
        raise CommentError("Give a name to sign the comment with (a player's name or side).")
    if len(author) > LONGEST_AUTHOR:
        raise CommentError(f"The name has {len(author)} characters; shorten it to {LONGEST_AUTHOR} at most.")
    comment = Comment(secrets.token_urlsafe(12), case_file_id, author, body, clock.now())
    with store.write_transaction(connection):
        if connection.execute("SELECT 1 FROM case_file WHERE id = ?", (case_file_id,)).fetchone() is None:
            raise CommentError("There is no case file at this address; use the link the arbiter gave you.")
        counters.take(connection, ACTION, client, limit)
        connection.execute(
            "INSERT INTO case_comment (id, case_file, author, body, written_at) VALUES (?, ?, ?, ?, ?)",
            (comment.id, case_file_id, author, body, comment.written_at),
        )
    return comment


def listed(connection: store.Connection, case_file_id: str) -> list[Comment]:
    rows = connection.execute(
        "SELECT id, case_file, author, body, written_at FROM case_comment WHERE case_file = ? ORDER BY written_at, id",
        (case_file_id,),
    ).fetchall()
    return [Comment(row["id"], row["case_file"], row["author"], row["body"], row["written_at"]) for row in rows]

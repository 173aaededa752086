"""The command stream of a save or log: nesting, then one typed command per leaf.

``GameModule.encode`` writes a command tree as ESC-separated tokens, nesting a
command's sub-commands one SequenceEncoder level deeper; ``decode`` mirrors
that by splitting on ESC and recursing into every token that is not the whole
string.  We do the same iteratively (a hostile file cannot blow the stack) and
stream the top level so a 50 MB log never needs to be split in one piece.

Leaves are dispatched on their prefix the way VASSAL's encoders claim them;
anything unknown is kept as :class:`OtherCommand`, as VASSAL ignores a
command no encoder recognises.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from validator.limits import DEFAULT_LIMITS, Limits

from .errors import VassalFormatError
from .sequence import items, java_int, leading, split

ESC = "\x1b"
LOG_PREFIX = "LOG\t"


@dataclass(frozen=True, slots=True)
class AddPiece:
    """``+/id/type/state``: create (or replace) a piece, stack or deck."""

    id: str
    type: str
    state: str


@dataclass(frozen=True, slots=True)
class RemovePiece:
    """``-/id``: delete a piece and take it out of any stack or deck."""

    id: str


@dataclass(frozen=True, slots=True)
class ChangePiece:
    """``D/id/new[/old]``: replace a piece's whole state (outermost trait first)."""

    id: str
    new_state: str
    old_state: str | None


@dataclass(frozen=True, slots=True)
class MovePiece:
    """``M/…``: move a piece to a map point, on top of ``new_under_id`` when given."""

    id: str
    new_map: str | None
    new_x: int
    new_y: int
    new_under_id: str | None
    old_map: str | None
    old_x: int
    old_y: int
    old_under_id: str | None


@dataclass(frozen=True, slots=True)
class SaveMarker:
    """``begin_save`` or ``end_save``: the bounds of the restore section."""

    end: bool


@dataclass(frozen=True, slots=True)
class UndoMarker:
    """``UNDO\\ttrue|false`` around the inverse commands of a logged undo."""

    active: bool


@dataclass(frozen=True, slots=True)
class BoardPlacement:
    """One board of a map's board-picker layout: its cell, not pixels."""

    map: str
    board: str
    column: int
    row: int
    reversed: bool = False


@dataclass(frozen=True, slots=True)
class SetBoards:
    """``<map>BoardPicker\\t<board>[/rev]\\t<col>\\t<row>…``: the boards a map uses."""

    map: str
    boards: tuple[BoardPlacement, ...]


@dataclass(frozen=True, slots=True)
class SetGlobalProperty:
    """``GlobalProperty\\t;name;value;container`` (container ``Module`` or a map)."""

    name: str
    value: str
    container: str


@dataclass(frozen=True, slots=True)
class ChangeProperty:
    """``MutableProperty\\tname\\told\\tnew\\tcontainer``."""

    name: str
    old_value: str | None
    new_value: str | None
    container: str


@dataclass(frozen=True, slots=True)
class Chat:
    """``CHAT<text>``: a line in the chat window (logs report moves here)."""

    text: str


@dataclass(frozen=True, slots=True)
class OtherCommand:
    """A leaf no reader here understands, kept verbatim (VASSAL would ignore it too)."""

    text: str


Command = (AddPiece | RemovePiece | ChangePiece | MovePiece | SaveMarker | UndoMarker | SetBoards
           | SetGlobalProperty | ChangeProperty | Chat | OtherCommand)


def iter_top_level(chunks: Iterable[str]) -> Iterator[str]:
    """Top-level ESC tokens of streamed text, unescaped once, exactly as ``Decoder`` gives them."""
    tail: list[str] = []       # raw text since the last ESC seen
    token: list[str] = []      # pieces of the current, not yet finished token
    for chunk in chunks:
        if ESC not in chunk:
            tail.append(chunk)
            continue
        parts = chunk.split(ESC)
        if tail:
            tail.append(parts[0])
            parts[0] = "".join(tail)
            tail = []
        for part in parts[:-1]:
            if part.endswith("\\"):
                token.append(part[:-1])
                token.append(ESC)
            else:
                token.append(part)
                yield _unquote("".join(token))
                token = []
        tail.append(parts[-1])
    token.extend(tail)
    yield _unquote("".join(token))


def _reference_group(raw: str) -> tuple[list[str], bool]:
    """Leaves and LOG flag of one raw top-level token by the rule-for-rule path (quotes and all)."""
    leaves: list[str] = []
    logged_any = False
    for token in iter_top_level((raw,)):
        for leaf, logged in iter_leaves(token):
            if leaf:
                leaves.append(leaf)
                logged_any = logged_any or logged
    return leaves, logged_any


def iter_command_groups(chunks: Iterable[str], *, limits: Limits = DEFAULT_LIMITS, source: str = "the command text",
                        entry: str | None = None) -> Iterator[tuple[list[str], bool]]:
    """For each top-level token of streamed text: its non-empty leaves in order, and whether any came through ``LOG``.

    The same result as ``iter_leaves`` over ``iter_top_level``, in one pass
    over the raw text.  Backslashes are never doubled, so an ESC preceded by k
    backslashes separates tokens at nesting depth k: every ESC-free run of raw
    text is exactly one leaf once its trailing backslashes (the separator's)
    are dropped.  Only single quotes can make the nesting matter (a quoted
    group loses its quotes at one level), so a top-level token in which some
    part starts or ends with ``'`` goes through the rule-for-rule decoder,
    whose cost grows with the token's depth: hence the nesting limit.

    Counted as the text streams, and refused with :class:`VassalFormatError`
    before the work: the tokens of each chunk (``limits.commands``, counted
    from the chunk's split, which holds at most one part per character of a
    chunk the archive's ``chunk_bytes`` bounds, before any part is read) and
    how deep a token nests (``limits.nesting``).
    A group is held as its raw parts only, and each becomes its leaf in place.
    """
    tail: list[str] = []       # raw text since the last ESC seen
    raw: list[str] = []        # raw parts of the current top-level token
    esc, log = ESC, LOG_PREFIX
    tokens, most_tokens, deepest = 1, limits.commands, limits.nesting
    too_deep = "\\" * (deepest + 1)        # a part ending in this many backslashes nests past the limit
    for chunk in chunks:
        if esc not in chunk:
            tail.append(chunk)
            continue
        parts = chunk.split(esc)      # at most one part per character of a chunk, which the archive caps
        tokens += len(parts) - 1
        if tokens > most_tokens:
            raise VassalFormatError(source, f"it holds {tokens:,} command tokens or more, "
                                            f"{limits.beyond('commands')}", entry=entry)
        if tail:
            tail.append(parts[0])
            parts[0] = "".join(tail)
            tail = []
        tail.append(parts.pop())
        keep = raw.append
        for part in parts:
            keep(part)
            if part[-1:] == "\\":                # an escaped ESC: the top-level token goes on
                if part.endswith(too_deep):
                    depth = len(part) - len(part.rstrip("\\"))
                    raise VassalFormatError(source, f"a command is nested {depth:,} levels deep, "
                                                    f"{limits.beyond('nesting')}", entry=entry)
            elif len(raw) == 1 and "'" not in part:      # most tokens: one leaf, nothing quoted
                raw.clear()
                if not part.startswith(log):
                    yield ([part] if part else []), False
                else:
                    leaf = _without_log_prefixes(part)
                    yield ([leaf], True) if leaf else ([], False)
            else:
                yield _group(raw, last_is_data=False)
                raw = []
                keep = raw.append
    raw.append("".join(tail))
    yield _group(raw, last_is_data=True)


def _group(raw: list[str], last_is_data: bool) -> tuple[list[str], bool]:
    """The leaves and LOG flag of one top-level token from its raw parts, which it uses up.

    Every part but the last ends before an ESC, so its trailing backslashes
    are that ESC's escapes; the last part of the text's final token ends the
    text, and its backslashes are data (``last_is_data``).
    """
    last = len(raw) - 1
    for index, part in enumerate(raw):
        if "'" in part:
            leaf = part if last_is_data and index == last else part.rstrip("\\")
            if leaf.startswith(LOG_PREFIX):
                leaf = _without_log_prefixes(leaf)
            if part[0] == "'" or leaf[:1] == "'" or leaf[-1:] == "'":
                return _reference_group(ESC.join(raw))
    leaves: list[str] = []
    logged_any = False
    log = LOG_PREFIX
    for index, part in enumerate(raw):
        raw[index] = ""                      # the part's text is the leaf's now: hold it once
        leaf = part if last_is_data and index == last else part.rstrip("\\")
        if leaf:
            if leaf.startswith(log):
                leaf = _without_log_prefixes(leaf)
                if leaf:
                    logged_any = True
                    leaves.append(leaf)
            else:
                leaves.append(leaf)
    return leaves, logged_any


def _without_log_prefixes(leaf: str) -> str:
    """The leaf after every leading ``LOG\\t``, cut once however many there are."""
    start = 4
    while leaf.startswith(LOG_PREFIX, start):
        start += 4
    return leaf[start:]


def _unquote(token: str) -> str:
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


def iter_leaves(command: str) -> Iterator[tuple[str, bool]]:
    """Leaf command strings of one command, in order, each with whether it came through ``LOG``.

    Mirrors ``GameModule.decode``: a string whose first ESC token is itself is
    a leaf; otherwise every token is decoded again.  ``LOG\\t`` re-decodes its
    remainder the same way (``BasicLogger``), and so does a quoted leaf without
    its quotes; both are taken off by moving two ends, so a leaf wrapped in
    many of them is cut once.  Iterative, so no nesting depth a hostile file
    can write exhausts the Python stack.
    """
    work: list[tuple[str, bool]] = [(command, False)]
    pop = work.pop
    while work:
        text, logged = pop()
        if ESC in text:
            tokens = split(text, ESC)
            tokens.reverse()
            work.extend([(token, logged) for token in tokens])
            continue
        start, end = 0, len(text)
        while True:
            if text.startswith(LOG_PREFIX, start, end):
                start, logged = start + 4, True
            elif end - start > 1 and text[start] == "'" and text[end - 1] == "'":
                start, end = start + 1, end - 1
            else:
                yield text[start:end], logged
                break


def _null(value: str | None) -> str | None:
    return None if value is None or value == "null" else value


def add_fields(text: str) -> tuple[str, str, str]:
    """``+/id/type/state`` as (id, type, state); missing parts are empty."""
    tokens = leading(text, "/", 3, start=2)
    if len(tokens) < 3:
        tokens += [""] * (3 - len(tokens))
    return tokens[0], tokens[1], tokens[2]


def change_fields(text: str) -> tuple[str, str, str | None]:
    """``D/id/new[/old]`` as (id, new state, old state or ``None``)."""
    tokens = leading(text, "/", 3, start=2)
    return tokens[0], tokens[1] if len(tokens) > 1 else "", tokens[2] if len(tokens) > 2 else None


def move_fields(text: str) -> tuple[str, str | None, int, int, str | None, str | None, int, int, str | None]:
    """``M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder[/player]``, ``null`` read as ``None``."""
    tokens: list[str | None] = leading(text, "/", 9, start=2)
    if len(tokens) < 9:
        tokens += [None] * (9 - len(tokens))
    return (tokens[0] or "", _null(tokens[1]), java_int(tokens[2], 0), java_int(tokens[3], 0), _null(tokens[4]),
            _null(tokens[5]), java_int(tokens[6], 0), java_int(tokens[7], 0), _null(tokens[8]))


def parse_leaf(text: str, most_items: int = DEFAULT_LIMITS.list_items) -> Command | None:
    """The typed command a leaf encodes, ``None`` for the empty leaf, else :class:`OtherCommand`.

    A board list longer than ``most_items`` raises :class:`TooManyItems`.
    """
    if not text:
        return None
    head = text[:2]
    if head == "M/":
        return MovePiece(*move_fields(text))
    if head == "D/":
        return ChangePiece(*change_fields(text))
    if head == "+/":
        return AddPiece(*add_fields(text))
    if head == "-/":
        return RemovePiece(text[2:])
    if text == "begin_save" or text == "end_save":
        return SaveMarker(end=text == "end_save")
    if text.startswith("CHAT"):
        return Chat(text[4:])
    if text.startswith("UNDO\t"):
        return UndoMarker(text[5:] == "true")
    if text.startswith("GlobalProperty\t"):
        tokens = leading(text, ";", 4) + ["", "", ""]
        return SetGlobalProperty(tokens[1], tokens[2], tokens[3])
    if text.startswith("MutableProperty\t"):
        tokens = leading(text[len("MutableProperty\t"):], "\t", 4)
        if not tokens or tokens == [""]:
            return OtherCommand(text)
        tokens += [None, None, None]
        return ChangeProperty(tokens[0], tokens[1], tokens[2], tokens[3] or "")
    first_tab = text.find("\t")
    if first_tab > 0 and text[:first_tab].endswith("BoardPicker") or text.endswith("BoardPicker"):
        return _parse_boards(text, most_items)
    return OtherCommand(text)


def _parse_boards(text: str, most_items: int) -> SetBoards:
    tokens = items(text, "\t", most_items)
    map_id = tokens[0][: -len("BoardPicker")]
    boards = []
    index = 1
    while index < len(tokens):
        name_and_flag = leading(tokens[index], "/", 2)
        column = java_int(tokens[index + 1], 0) if index + 1 < len(tokens) else 0
        row = java_int(tokens[index + 2], 0) if index + 2 < len(tokens) else 0
        boards.append(BoardPlacement(map_id, name_and_flag[0], column, row,
                                     len(name_and_flag) > 1 and name_and_flag[1] == "rev"))
        index += 3
    return SetBoards(map_id, tuple(boards))

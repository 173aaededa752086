"""The methods ``dataclasses`` writes for each class, compiled once per machine instead of once per process.

For every ``@dataclass`` the standard library writes the source of
``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and, frozen,
``__setattr__`` and ``__delattr__``) and compiles it when the class is made:
at start-up, for the sixty-odd value classes of the core and a game, that
compiling was about a third of a small check's time (issue 14's lean
start-up).  :func:`install` gives the ``dataclasses`` module an ``exec`` that
looks the source text up in a table of code objects kept in the instance
folder (``compiled-methods/``, beside the prepared maps and case indexes),
compiles only a text it has not seen, and runs the code object exactly as ``exec`` would
have run the text: the classes, their methods and their behaviour are the
ones ``dataclasses`` makes, only made sooner.

An entry is kept as its code object's marshal bytes and turned back into
code only when its text is asked for, so a table that has grown with the web
app's and every game's classes costs a check little more to read than its
own entries.

What it trusts: an entry is named by the whole source text it was compiled
from, so a changed class (another field, default or option) is another text
and is compiled afresh; never an entry for other text.  The file starts with
the interpreter's bytecode magic number, the table's format, the optimisation
level and a CRC-32 of the rest: a file of another Python, another ``-O``, or damaged in any way
is ignored and written anew, never an error.  The table is read when the
first module making dataclasses is imported, before any command looks at the
instance folder's rights, and what it holds is run: a table file that another
user owns, that its group or others may write, that is a symbolic link or
that has other names (hard links) is ignored, as if absent, and written anew
(where ``os.getuid`` does not exist, Windows, the file's mode bits say nothing
and both tests are skipped).  Nothing is written while the instance folder
does not exist when the process ends or cannot be written: there it compiles
as before.  A command that needs the folder creates it (a check creates it to
keep its prepared map, the web app at start), so the table written at its exit
follows the folder's creation.  The table's folder and file are the owner's
only, as the rest of the instance folder (it holds code, as the prepared maps'
pickles do).
"""

from __future__ import annotations

import contextlib
import importlib
import marshal
import os
import stat
import sys
import types
import zlib
from pathlib import Path

FOLDER_NAME = "compiled-methods"
FORMAT = 2  # raise it when the layout of the table changes (1: text -> code object; 2: text -> its marshal bytes)
MOST_ENTRIES = 4096  # beyond it, the file keeps only the texts the last writing process used
_code_of: dict[str, object] = {}  # source text -> its code's marshal bytes (as read) or code object (compiled)
_used: set[str] = set()
_compiled_anew = False


def install() -> None:
    """Make ``dataclasses`` compile through the table; idempotent, and a no-op where it could not be exact.

    Installed before anything has imported ``dataclasses`` (the command line
    does so), it imports it without the modules it seldom uses
    (:func:`_import_dataclasses`).
    """
    dataclasses = _import_dataclasses()
    if getattr(dataclasses, "exec", None) is _exec or not _exact_for(dataclasses):
        return
    _code_of.update(_read(_table_path()))
    dataclasses.exec = _exec  # a module global shadows the builtin for dataclasses only
    import atexit

    atexit.register(_write_if_new)


SELDOM_USED_BY_DATACLASSES = ("copy", "inspect")
"""What ``dataclasses`` imports and uses only now and then: ``copy`` (with weakref) for asdict and astuple,
``inspect`` (with ast, dis and tokenize) for the docstring of a class that has none."""


class _ImportedOnUse(types.ModuleType):
    """Stands in a module's namespace for a module it seldom uses; the first name read from it imports that one.

    The real module then takes the stand-in's place there, so every later use
    is the module itself.  The stand-in is never left in ``sys.modules``: any
    other importer gets the real module.
    """

    def __init__(self, name: str, user: str) -> None:
        super().__init__(name)
        self._user = user

    def __getattr__(self, name: str):
        module = importlib.import_module(self.__name__)
        setattr(sys.modules[self._user], self.__name__, module)
        return getattr(module, name)


def _import_dataclasses():
    """``dataclasses``, imported (if it is not yet) with :data:`SELDOM_USED_BY_DATACLASSES` imported on first use.

    Those modules are half of what importing ``dataclasses`` costs a command
    that also imports lxml, more for one that does not (issue 14's lean
    start-up).  A stand-in takes each one's place while ``dataclasses`` is
    imported; what dataclasses do is unchanged, only when those are imported.
    """
    if "dataclasses" in sys.modules:
        return sys.modules["dataclasses"]
    stand_ins = [name for name in SELDOM_USED_BY_DATACLASSES if name not in sys.modules]
    sys.modules.update((name, _ImportedOnUse(name, "dataclasses")) for name in stand_ins)
    try:
        import dataclasses
    finally:
        for name in stand_ins:
            if isinstance(sys.modules.get(name), _ImportedOnUse):
                del sys.modules[name]
    return dataclasses


def _exact_for(module) -> bool:
    """Whether a code object compiled here runs as the module's own ``exec(text)`` would.

    ``exec`` of a text compiles it with the future flags of the calling
    module; compiling with ``dont_inherit`` is the same only when that module
    has none (``from __future__ import annotations`` would leave its name).
    """
    return "annotations" not in vars(module) and sys.implementation.name == "cpython"


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    if type(source) is not str:
        return exec(source, globals, locals)
    global _compiled_anew
    code = _code(_code_of.get(source))
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _code_of[source] = code
        _compiled_anew = True
    _used.add(source)
    return exec(code, globals, locals)


def _code(entry: object):
    """The code object of an entry (kept bytes are read back), or None: no entry, or bytes that are not code."""
    if type(entry) is not bytes:
        return entry
    try:
        code = marshal.loads(entry)
    except (EOFError, ValueError, TypeError):
        return None
    return code if type(code) is type(_code.__code__) else None


def _table_path() -> Path | None:
    """The table of this interpreter in the instance folder; None while that folder does not exist."""
    from validator import instance

    home = instance.resolved_folder()
    if not home.is_dir():
        return None
    return home / FOLDER_NAME / f"{sys.implementation.cache_tag}-O{sys.flags.optimize}.marshal"


def _header(payload: bytes) -> bytes:
    from importlib.util import MAGIC_NUMBER

    return MAGIC_NUMBER + bytes([FORMAT, sys.flags.optimize]) + zlib.crc32(payload).to_bytes(4, "little")


def _read(path: Path | None) -> dict[str, object]:
    if path is None:
        return {}
    # Never through a symbolic link, never waiting on a pipe put in its place; the rights are those of the file
    # opened, not of a name looked up again.
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        with open(os.open(path, flags), "rb") as kept:
            if not _is_trusted(os.fstat(kept.fileno())):
                return {}
            data = kept.read()
    except OSError:
        return {}
    size = len(_header(b""))
    payload = data[size:]
    if data[:size] != _header(payload):
        return {}  # another interpreter's, another -O, or damaged
    try:
        table = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {text: entry for text, entry in table.items() if type(text) is str and type(entry) is bytes}


def _is_trusted(status: os.stat_result) -> bool:
    """Whether a table file may be run: a plain file of this user's only, which no other may have written.

    Another user's file, one its group or others may write, and a file with
    other names (a hard link made to it) may hold anyone's code.  Where
    ``os.getuid`` does not exist (Windows), there are no owners and mode bits
    to go by, and the file is trusted as the folder is.
    """
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    return (stat.S_ISREG(status.st_mode) and status.st_uid == getuid() and not status.st_mode & 0o022
            and status.st_nlink == 1)


def _write_if_new() -> None:
    """At exit, when some text was compiled anew: the table, written to a file of this process and renamed in."""
    path = _table_path()
    if not _compiled_anew or path is None:
        return
    kept = _code_of if len(_code_of) <= MOST_ENTRIES else {text: _code_of[text] for text in _used}
    table = {text: entry if type(entry) is bytes else marshal.dumps(entry) for text, entry in kept.items()}
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        payload = marshal.dumps(table)
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as written:
            written.write(_header(payload) + payload)
        os.replace(partial, path)
    except (OSError, ValueError):  # a read-only installation, a full disk: compile again next time
        with contextlib.suppress(OSError):
            os.unlink(partial)

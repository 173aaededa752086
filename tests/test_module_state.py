"""No module of ``plugin/`` keeps mutable state at module level, so nothing one check works out reaches
another position's checks, and the threaded web server shares nothing it could tear.

Read from the source (the AST), not by importing: a module-level (or class-level) name bound to a
dict, list or set display or comprehension, a generator, or a call that builds a mutable container
fails; so does any ``global`` or ``nonlocal`` statement, and a module-level function memoised by
``functools.cache``/``lru_cache`` (a cache keyed by its arguments is state carried between calls).
A table wrapped read-only (``MappingProxyType``, ``frozenset``, ``tuple``) is fine.  Work shared
between checks belongs on the position or its map (``validator.derived.memoised``).  The few
exceptions are listed in :data:`ALLOWED`, each with its reason.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ROOT / "plugin"

MUTABLE_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp, ast.GeneratorExp)
MUTABLE_BUILDERS = frozenset({"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict", "Counter", "deque",
                              "ChainMap", "SimpleNamespace"})
MEMOISERS = frozenset({"cache", "lru_cache"})

# (file relative to the checkout, name) -> why it may stay.
ALLOWED = {
    ("plugin/tww/rivals.py", "rulebook_table"): (
        "reads the shipped rivalry.toml once, without arguments, and returns an immutable table: "
        "a registry fixed on first use, not a cache of anything a position holds"
    ),
}


@dataclass(frozen=True)
class Offence:
    path: str
    line: int
    name: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} {self.what}"


def _called_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def _mutable(value: ast.AST | None) -> bool:
    if isinstance(value, (*MUTABLE_DISPLAYS, ast.AugAssign)):
        return True
    return isinstance(value, ast.Call) and _called_name(value) in MUTABLE_BUILDERS


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _names(element)]
    return [ast.unparse(target)]


def _bindings(body: list[ast.stmt], scope: str):
    """(line, name, value) of every assignment run when the module (or a class in it) is loaded."""
    for statement in body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                for name in _names(target):
                    yield statement.lineno, scope + name, statement.value
        elif isinstance(statement, ast.AnnAssign):
            for name in _names(statement.target):
                yield statement.lineno, scope + name, statement.value
        elif isinstance(statement, ast.AugAssign):  # "x += ..." at load time: a value built up in place
            for name in _names(statement.target):
                yield statement.lineno, scope + name, statement
        elif isinstance(statement, ast.ClassDef):
            yield from _bindings(statement.body, f"{scope}{statement.name}.")
        elif isinstance(statement, (ast.If, ast.Try, ast.With)):
            nested = [*statement.body, *getattr(statement, "orelse", []), *getattr(statement, "finalbody", [])]
            for handler in getattr(statement, "handlers", []):
                nested.extend(handler.body)
            yield from _bindings(nested, scope)


def offences(source: str, path: str) -> list[Offence]:
    """What in ``source`` keeps mutable state at module level, in line order."""
    tree = ast.parse(source)
    found = [
        Offence(path, line, name, "is bound to a mutable container at module level")
        for line, name, value in _bindings(tree.body, "") if _mutable(value)
    ]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            statement = "global" if isinstance(node, ast.Global) else "nonlocal"
            found.extend(Offence(path, node.lineno, name, f"is rebound through a {statement} statement")
                         for name in node.names)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_called_name(decorator) in MEMOISERS for decorator in node.decorator_list):
                found.append(Offence(path, node.lineno, node.name, "is memoised at module level"))
    return sorted((offence for offence in found if (offence.path, offence.name) not in ALLOWED),
                  key=lambda offence: offence.line)


def test_the_reader_sees_every_kind_of_module_state():
    source = '''
from functools import cache, lru_cache
from types import MappingProxyType
import collections

_last = [None, None]
SEEN: dict[str, int] = {}
PAIRS = {pair for pair in "ab"}
TALLY = collections.Counter()
if True:
    LATER = set()
FIXED = MappingProxyType({"a": 1})
NAMES = frozenset({"a", "b"})
ORDER = ("a", "b")
WORD = "a"
WORD += "b"


class Holder:
    registry = {}
    kind = "holder"


@lru_cache(maxsize=None)
def looked_up(key):
    global _last
    return key


@cache
def read_once():
    return 1
'''
    found = [(offence.line, offence.name, offence.what.split()[1]) for offence in offences(source, "sample.py")]
    assert found == [
        (6, "_last", "bound"), (7, "SEEN", "bound"), (8, "PAIRS", "bound"), (9, "TALLY", "bound"),
        (11, "LATER", "bound"), (16, "WORD", "bound"), (20, "Holder.registry", "bound"),
        (25, "looked_up", "memoised"), (26, "_last", "rebound"), (31, "read_once", "memoised"),
    ]


def test_every_allowed_exception_still_exists_and_says_why():
    for (path, name), reason in ALLOWED.items():
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        assert name in {getattr(node, "name", None) for node in tree.body}, f"{path} no longer defines {name}"
        assert len(reason.split()) >= 8, f"say why {name} may stay"


@pytest.mark.parametrize("path", sorted(PLUGINS.rglob("*.py")), ids=lambda path: str(path.relative_to(PLUGINS)))
def test_no_plugin_module_keeps_mutable_state(path):
    relative = str(path.relative_to(ROOT))
    assert [str(offence) for offence in offences(path.read_text(encoding="utf-8"), relative)] == []

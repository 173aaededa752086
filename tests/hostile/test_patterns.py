"""Every regular expression in validator/ and plugin/ costs time linear in the text it reads.

The patterns are found by importing every module (each module-level
``re.Pattern``) and by reading the source for patterns written in a call
(``re.sub(r"...", ...)``), so a new pattern fails here until it is given its
worst texts below.  Each pattern is run the ways the code runs it (read from
the source: ``match``, ``fullmatch``, ``search``, or a scan for ``sub``,
``split``, ``findall`` and ``finditer``) on a quarter of a megabyte of each
of its worst texts and a quarter of that of each shared shape (long runs of
what patterns repeat, with what they need next missing); the CPU cost is
compared with the cost at an eighth of the size.  A pattern that backtracks
over its text costs the square of it or more, so the growth shows at these
sizes as at a megabyte (a quadratic one: 64 times, past the bound of 20).
The patterns users write in mappings run on RE2 and are tested in
``test_user_patterns.py``.
"""
from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from tests.hostile.conftest import LINEAR_BOUND
from tests.hostile.cost import HANG_GUARD_SECONDS, measure

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("validator", "plugin")
SIZES = {"small": 32 * 1024, "large": 256 * 1024}
"""A pattern's own worst texts at 32 KiB and at 256 KiB; the shared shapes at a quarter of that."""
SHARED_SIZE_DIVISOR = 4
CALLS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
SCANS = {"sub", "subn", "split", "findall", "finditer"}
EVERY_USE = ("match", "fullmatch", "search", "scan")
BATCH = 6
ARGUMENTS_BEFORE_FLAGS = {"match": 2, "fullmatch": 2, "search": 2, "findall": 2, "finditer": 2, "split": 3, "sub": 4,
                          "subn": 4}
"""Patterns measured by one child: fewer interpreters to start, and a hang still narrowed to a few."""

SHAPES = {
    "spaces": lambda size: " " * size + "\x00",
    "spaces between letters": lambda size: "A" + " " * size + "b",
    "tabs and newlines": lambda size: "\t\n" * (size // 2) + "x",
    "capitals": lambda size: "A" * size + ".",
    "letters": lambda size: "a" * size + "\x00",
    "digits": lambda size: "1" * size + "x",
    "digits and dots": lambda size: "1." * (size // 2) + "x",
    "digits and commas": lambda size: "1," * (size // 2) + "!",
    "capitals and spaces": lambda size: "A " * (size // 2) + "x",
    "letters and spaces": lambda size: "a " * (size // 2) + "[",
    "digits and spaces": lambda size: "1 " * (size // 2) + "x",
    "hyphens": lambda size: "-" * size + "x",
    "letters and hyphens": lambda size: "a-" * (size // 2) + "\x00",
    "backslashes": lambda size: "\\" * size + "x",
    "backslashes and tabs": lambda size: "\\\\\t" * (size // 3) + "x",
    "open braces": lambda size: "{a" * (size // 2),
    "dollars": lambda size: "$" + "a" * size,
    "open brackets": lambda size: "[a" * (size // 2),
    "quotes": lambda size: "'\"" * (size // 2),
    "bullets": lambda size: "• " * (size // 2) + "x",
    "case numbers without titles": lambda size: " 6.21" * (size // 5) + "x",
    "a bracketed number never closed": lambda size: "[1" + ".1" * (size // 2) + "x",
    "rule words": lambda size: "rule " * (size // 5) + "x",
    "words never long enough": lambda size: ("a" * 200 + " ") * (size // 201),
    "positions never at the end": lambda size: "(at line 1, column 1)" * (size // 21) + "x",
    "a key without an equals sign": lambda size: "key" + " " * size + "x",
    "a season and a year never given": lambda size: "Spring" + " -" * (size // 2) + "194",
    "an identifier too long": lambda size: "a" + "_" * size,
    "a figure with separators": lambda size: "1" + "_," * (size // 2) + " x",
    "hex digits": lambda size: "0123456789abcdef" * (size // 16) + "x",
    "a sign and digits": lambda size: "+" + "9" * size + " ",
    "board sizes never finished": lambda size: "b=1x" * (size // 4) + "y",
    "equals signs": lambda size: "=" * size,
    "extensions never at the end": lambda size: ".a" * (size // 2) + "!",
}
"""Hostile texts at a size: the first character set runs long, and what the pattern needs next never comes."""

SHARED = ("spaces", "spaces between letters", "tabs and newlines", "letters", "capitals and spaces", "digits and dots",
          "hyphens", "backslashes", "open braces", "open brackets", "quotes", "bullets")
"""The shapes every pattern meets besides its own: runs of what most patterns repeat."""

WORST = {
    "plugin.awaw.moves._SEASON_YEAR": ("a season and a year never given", "spaces between letters", "letters"),
    "validator.commands.vassal_mapping._BOARD_SIZE": ("board sizes never finished", "equals signs"),
    ("validator.commands.vassal_mapping", r"[^A-Za-z0-9_.:/\-]"): ("spaces", "letters"),
    # validator/cases.py: a case number; the reader only tries 32 characters, the pattern anchors both ends
    "validator.arbitration.arbiters.NAME_PATTERN": ("letters and hyphens", "an identifier too long"),
    "validator.arbitration.case_files._CONTROL": ("letters", "tabs and newlines"),
    "validator.arbitration.comments._CONTROL": ("letters", "tabs and newlines"),
    "validator.arbitration.rulings._CASE_SEPARATORS": ("spaces between letters", "digits and commas"),
    "validator.cases._PATTERN": ("digits and dots", "spaces", "case numbers without titles"),
    "validator.catalogue.GAME_ID": ("letters and hyphens", "letters"),
    "validator.console._LONE_SURROGATE": ("letters", "bullets"),
    "validator.facts._SEASON_YEAR": ("a season and a year never given", "spaces between letters", "letters"),
    "validator.facts._NUMBER": ("digits and dots", "digits"),
    "validator.limits._FIGURE": ("a figure with separators", "digits and commas", "digits and spaces"),
    "validator.limits._NAMED_LIMIT": ("rule words", "letters and spaces"),
    "validator.privacy._SEPARATORS": ("spaces between letters", "quotes", "open brackets"),
    "validator.rulebook.lines._HEADING": ("digits and dots", "bullets", "spaces"),
    "validator.rulebook.lines._BRACKETED_HEADING": ("a bracketed number never closed", "open brackets"),
    "validator.rulebook.lines._EMBEDDED": ("case numbers without titles", "digits and dots"),
    "validator.rulebook.lines._CONTENTS_TITLE": ("letters", "capitals and spaces"),
    ("validator.rulebook.lines", r"\W"): ("spaces", "bullets"),
    "validator.rulebook.parser._ITEM": ("bullets", "capitals", "capitals and spaces"),
    "validator.rulebook.parser._NUMBERED": ("digits",),
    "validator.rulebook.parser._PAGE_NUMBER": ("digits",),
    "validator.rulebook.parser._TABLE_CAPTION": ("spaces between letters", "capitals and spaces"),
    "validator.rulebook.parser._CAPITALS": ("capitals and spaces", "capitals"),
    "validator.rulebook.parser._LEADING_PHRASE": ("spaces", "capitals and spaces", "digits and dots"),
    "validator.rulebook.references._REFERENCE": ("rule words", "case numbers without titles", "digits and dots"),
    ("validator.rulebook.storage", r"\w+"): ("letters and spaces", "letters"),
    ("validator.rulebook.storage", r"[^\W_]+"): ("letters", "an identifier too long"),
    "validator.rulebook.tables._VALUE": ("digits and spaces", "digits and dots", "hyphens"),
    ("validator.saves.vassal.export", r"[\r\n]"): ("tabs and newlines",),
    "validator.saves.vassal.damage._CONTROL": ("letters", "tabs and newlines"),
    "validator.saves.vassal.grids._KEY": ("dollars",),
    "validator.saves.vassal.mapping._SLOT": ("open braces",),
    "validator.saves.vassal.mapping._NAME": ("letters", "an identifier too long"),
    "validator.saves.vassal.mapping._INTEGER": ("a sign and digits", "digits"),
    ("validator.saves.vassal.mapping", r"[^a-z0-9]+"): ("letters and hyphens", "spaces"),
    ("validator.saves.vassal.mapping", r"[.\-_]"): ("digits and dots", "hyphens"),
    ("validator.saves.vassal.mapping", r"^[A-Za-z][A-Za-z0-9+.\-]*://"): ("letters", "letters and hyphens"),
    "validator.saves.vassal.map_skeleton._IDENTIFIER": ("an identifier too long", "letters"),
    "validator.saves.vassal.map_skeleton._NOT_IDENTIFIER": ("spaces", "letters"),
    "validator.saves.vassal.draft_pieces._WORD": ("letters", "digits and dots"),
    "validator.saves.vassal.draft_state._IDENTIFIER": ("an identifier too long", "letters"),
    "validator.saves.vassal.mapping_draft._IDENTIFIER": ("an identifier too long", "letters"),
    "validator.saves.vassal.mapping_draft._SPECIAL": ("backslashes", "open brackets"),
    ("validator.saves.vassal.mapping_draft", r"-(?=-)"): ("hyphens",),
    ("validator.saves.vassal.mapping_draft", r"[0-9A-Za-z][0-9A-Za-z.\-_]{0,39}"): ("an identifier too long",),
    ("validator.saves.vassal.draft_pieces", r"\.[A-Za-z]+$"): ("extensions never at the end", "letters"),
    "validator.saves.vassal.obfuscation._NOT_HEX": ("hex digits",),
    "validator.saves.vassal.sequence._JAVA_INT": ("a sign and digits", "digits"),
    "validator.saves.vassal.translation._IDENTIFIER": ("an identifier too long", "letters"),
    "validator.saves.vassal.translation._WHOLE": ("digits",),
    "validator.saves.vassal.translation._NOT_XML": ("letters", "bullets"),
    ("validator.saves.vassal.translation", r"[^A-Za-z0-9_.:/\-]"): ("spaces", "letters"),
    "validator.settings._POSITION": ("positions never at the end", "spaces"),
    "validator.settings._HEADER": ("open brackets", "spaces"),
    "validator.settings._ASSIGNMENT": ("a key without an equals sign", "letters and spaces", "quotes"),
    ("validator.web.checking", r"(\d+)"): ("digits", "digits and spaces"),
    "validator.web.kept_modules.SHA256_TEXT": ("hex digits",),
    "validator.web.markup._HIGHLIGHT_MARKERS": ("letters",),
    "validator.web.records._ID_PATTERN": ("letters and hyphens", "letters"),
    "validator.xmlparsing._LONG_WORD": ("words never long enough", "letters"),
}
"""Each pattern's own worst texts (names in SHAPES), beside the whole set every pattern meets."""


def _modules() -> list[str]:
    names = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, f"{package_name}.")]
    return names


def _source(module_name: str) -> Path:
    path = ROOT / Path(*module_name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def label(key: str | tuple[str, str]) -> str:
    """``module.NAME`` for a module's pattern, ``module: 'text'`` for one written in a call."""
    return key if isinstance(key, str) else f"{key[0]}: {key[1]!r}"


def _is_re_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CALLS
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "re")


def _flags(call: ast.Call) -> int:
    """The ``flags=`` of a call, written as ``re.I`` or ``re.I | re.X``."""
    def value(node: ast.expr) -> int:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return value(node.left) | value(node.right)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
            return int(getattr(re, node.attr))
        raise AssertionError(f"flags written as {ast.unparse(node)}: write them as re.NAME | re.NAME")

    return next((value(keyword.value) for keyword in call.keywords if keyword.arg == "flags"), 0)


@cache
def _trees() -> dict[str, ast.Module]:
    return {name: ast.parse(_source(name).read_text(encoding="utf-8")) for name in _modules()}


def _assigned_at_top(tree: ast.Module) -> dict[str, ast.expr]:
    """The module-level assignments of a module: name -> the value assigned."""
    assigned = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            assigned.update({target.id: node.value for target in node.targets if isinstance(target, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            assigned[node.target.id] = node.value
    return assigned


@cache
def found_patterns() -> dict[str | tuple[str, str], dict]:
    """Every pattern of the project: how the cost child finds it, and the ways the code uses it."""
    patterns: dict[str | tuple[str, str], dict] = {}
    trees = _trees()
    uses = _uses_by_name(trees.values())
    for module_name, tree in trees.items():
        module = importlib.import_module(module_name)
        for name in _assigned_at_top(tree):
            if isinstance(getattr(module, name, None), re.Pattern):
                patterns[f"{module_name}.{name}"] = {
                    "module": module_name, "name": name, "uses": uses.get(name) or set(EVERY_USE)}
        for node in ast.walk(tree):
            if _is_re_call(node) and node.func.attr != "compile" and _literal(node) is not None:
                entry = patterns.setdefault((module_name, _literal(node)),
                                            {"text": _literal(node), "flags": _flags(node), "uses": set()})
                entry["uses"].add("scan" if node.func.attr in SCANS else node.func.attr)
    return patterns


def _literal(call: ast.Call) -> str | None:
    first = call.args[0] if call.args else None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str | bytes) else None


def _uses_by_name(trees) -> dict[str, set[str]]:
    """For every name read anywhere, the pattern methods called on it; every use where it is handed around."""
    uses: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                    name = child.id
                elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Load):
                    name = child.attr
                else:
                    continue
                if isinstance(node, ast.Attribute):
                    if node.attr in CALLS - {"compile"}:
                        uses.setdefault(name, set()).add("scan" if node.attr in SCANS else node.attr)
                else:
                    uses.setdefault(name, set()).update(EVERY_USE)
    return uses


def test_every_pattern_of_the_project_has_its_worst_texts():
    found = set(found_patterns())
    assert len(found) >= 35
    untested = sorted(map(label, found - set(WORST)))
    assert not untested, f"patterns with no worst texts in WORST: {untested}"
    gone = sorted(map(label, set(WORST) - found))
    assert not gone, f"worst texts for patterns that are gone: {gone}"
    for key, shapes in WORST.items():
        assert shapes and set(shapes) <= set(SHAPES), label(key)


def test_patterns_are_written_where_this_test_can_find_them():
    """A pattern compiled in a function, or built at run time for a call, would escape the enumeration."""
    hidden = []
    for module_name, tree in _trees().items():
        top_level = {id(value) for value in _assigned_at_top(tree).values()}
        for node in ast.walk(tree):
            if not _is_re_call(node):
                continue
            if node.func.attr == "compile" and id(node) not in top_level:
                hidden.append(f"{module_name}, line {node.lineno}: re.compile outside a module-level assignment")
            elif node.func.attr != "compile" and _literal(node) is None:
                hidden.append(f"{module_name}, line {node.lineno}: re.{node.func.attr} on a pattern built at run time")
            elif node.func.attr != "compile" and len(node.args) > ARGUMENTS_BEFORE_FLAGS[node.func.attr]:
                hidden.append(f"{module_name}, line {node.lineno}: flags given by position (write flags=)")
    assert not hidden


def test_the_uses_are_read_from_the_source():
    patterns = found_patterns()
    assert patterns["validator.rulebook.lines._EMBEDDED"]["uses"] == {"scan"}
    assert patterns["validator.rulebook.parser._LEADING_PHRASE"]["uses"] == {"match"}
    assert patterns[("validator.saves.vassal.mapping", r"[.\-_]")]["uses"] == {"scan"}


def _measure_batch(folder: Path, batch: list[dict]) -> dict[str, dict[str, float]]:
    """The costs of a batch of patterns in one child; a batch that hangs is measured pattern by pattern."""
    try:
        measured = measure("patterns", folder, argument=batch)
    except subprocess.TimeoutExpired:
        if len(batch) == 1:  # which text hung is not known; every one is marked
            return {batch[0]["key"]: {file: float("inf") for file in batch[0]["files"]}}
        return {key: value for spec in batch for key, value in _measure_batch(folder, [spec]).items()}
    assert measured.summary is not None, f"measuring {[spec['key'] for spec in batch]} ended with {measured}"
    return json.loads(measured.summary)


def _file(shape: str, shared: bool) -> str:
    return f"{'shared' if shared else 'worst'}-{list(SHAPES).index(shape)}.txt"


@pytest.fixture(scope="module")
def costs(tmp_path_factory) -> dict[str, dict[str, dict[str, float]]]:
    """Every pattern's cost on each of its texts, small and large, measured once for the whole module."""
    root = tmp_path_factory.mktemp("patterns")
    specs = []
    for key, spec in found_patterns().items():
        files = [_file(shape, False) for shape in WORST.get(key, ())] + [_file(shape, True) for shape in SHARED]
        specs.append({"key": label(key), "uses": sorted(spec["uses"]), "files": files,
                      **{field: spec[field] for field in ("module", "name", "text", "flags") if field in spec}})
    costs = {}
    for folder, size in SIZES.items():
        (root / folder).mkdir()
        for shape, build in SHAPES.items():
            (root / folder / _file(shape, False)).write_text(build(size), encoding="utf-8")
            if shape in SHARED:
                (root / folder / _file(shape, True)).write_text(build(size // SHARED_SIZE_DIVISOR), encoding="utf-8")
        costs[folder] = {}
        for start in range(0, len(specs), BATCH):
            costs[folder].update(_measure_batch(root / folder, specs[start:start + BATCH]))
    return costs


@pytest.mark.parametrize("key", [pytest.param(key, id=label(key)) for key in WORST])
def test_a_pattern_costs_the_length_of_its_worst_texts(costs, key):
    assert label(key) in costs["small"], f"{label(key)} is not a pattern of the project any more"
    names = {_file(shape, shared): shape for shape in SHAPES for shared in (False, True)}
    for file, small in costs["small"][label(key)].items():
        large = costs["large"][label(key)][file]
        assert large != float("inf"), f"{label(key)} ran past {HANG_GUARD_SECONDS} s on {names[file]!r}"
        assert large / max(small, 1e-3) < LINEAR_BOUND, (label(key), names[file], small, large)

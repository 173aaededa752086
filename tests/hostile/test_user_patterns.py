"""Patterns a mapping's author writes run on RE2: linear on any name, and what RE2 cannot run is refused by name.

A mapping may come from a stranger, so its patterns are hostile input too:
``^(a|aa)+$`` on a name of a megabyte of ``a`` followed by ``b`` took Python's
engine time exponential in the name; here it costs what reading the name
costs, at n and 8n.
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

from validator.patterns import QUOTED_LENGTH, compile_user_pattern
from validator.saves.vassal.mapping import MappingError, read_mapping

from tests.hostile.conftest import LINEAR_BOUND
from tests.hostile.cost import measure

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<mapping xmlns="urn:referee:mapping:1" version="1" game="tito">\n'

EXPONENTIAL_IN_PYTHON = {
    "alternation under a repeat": r"^(a|aa)+$",
    "nested repeats": r"^(a+)+$",
    "overlapping classes": r"^(\w|a)*$",
    "repeated optional groups": r"^(a?){30}a{30}$",
    "named groups that overlap": r"^(?P<x>a*)(?P<y>a*)(?P<z>a*)b$",
}


def mapping_file(folder: Path, match: str = "^x$", location: str = "^x$", ignore: str = "^x$") -> Path:
    path = folder / "club-mapping.xml"
    path.write_text(
        HEAD
        + '  <module name="M"/>\n  <map href="map.xml"/>\n  <pieces>\n'
        + f'    <ignore name-pattern="{_attribute(ignore)}"/>\n'
        + f'    <match pattern="{_attribute(match)}"/>\n'
        + '    <attribute name="type" value="infantry"/>\n  </pieces>\n  <locations>\n'
        + f'    <pattern match="{_attribute(location)}" id="x"/>\n  </locations>\n</mapping>\n',
        encoding="utf-8",
    )
    return path


def _attribute(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@pytest.mark.parametrize("shape", EXPONENTIAL_IN_PYTHON)
def test_a_pattern_that_backtracks_in_python_costs_the_length_of_the_name(tmp_path, shape):
    pattern = EXPONENTIAL_IN_PYTHON[shape]
    mapping = mapping_file(tmp_path, match=pattern, location=pattern, ignore=pattern)
    costs = {}
    for folder, size in (("small", 128 * 1024), ("large", 1024 * 1024)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a-then-b.txt").write_text("a" * size + "b", encoding="utf-8")
        (tmp_path / folder / "letters.txt").write_text("a" * size, encoding="utf-8")
        cost = measure("mapping_patterns", tmp_path / folder, argument=str(mapping))
        assert cost.summary is not None, cost
        costs[folder] = json.loads(cost.summary)
    for file in ("a-then-b.txt", "letters.txt"):
        small, large = costs["small"][file], costs["large"][file]
        assert large / max(small, 1e-3) < LINEAR_BOUND, (shape, file, small, large)


@pytest.mark.parametrize("pattern, construct", [
    (r"^(a)\1$", r"a backreference '\1'"),
    (r"^(?P<zone>a)(?P=zone)$", "a named backreference '(?P=name)'"),
    (r"^(?=Axis)", "a lookahead '(?=...)'"),
    (r"^(?!Axis)", "a negative lookahead '(?!...)'"),
    (r"(?<=Axis) Mountain", "a lookbehind '(?<=...)'"),
    (r"(?<!Axis) Mountain", "a negative lookbehind '(?<!...)'"),
    (r"(?>Axis|Ax)is", "an atomic group '(?>...)'"),
    (r"^a++$", "a possessive quantifier '++'"),
    (r"^(a)?(?(1)b|c)$", "a conditional group"),
    (r"^a(?#a comment)$", "a comment group"),
    (r"(?x) a b", "the group '(?x'"),
    (r"^a{2000}$", "the repetition '{2000}'"),
    (r"^(a{100}){100}$", "the repetition '{100}'"),
    (r"^Axis\Z", "'\\Z' (write '\\z' for the end of the text)"),
])
@pytest.mark.parametrize("element, line", [("match", 7), ("pattern", 11), ("ignore", 6)])
def test_a_construct_re2_cannot_run_is_refused_naming_the_file_line_and_construct(
        tmp_path, pattern, construct, element, line):
    path = mapping_file(tmp_path, **{{"pattern": "location"}.get(element, element): pattern})
    with pytest.raises(MappingError) as raised:
        read_mapping(path)
    message = str(raised.value)
    assert message.startswith(f"{path}, line {line}: the pattern {pattern!r} uses "), message
    assert construct in message
    assert message.endswith("rewrite the pattern without it")


def test_a_broken_pattern_says_what_is_missing_and_a_long_one_is_quoted_short(tmp_path):
    with pytest.raises(MappingError, match=r"line 7: the pattern '\[A-Z' does not compile: missing \]"):
        read_mapping(mapping_file(tmp_path, match="[A-Z"))
    long = "(" + "a" * 900
    with pytest.raises(MappingError) as raised:
        read_mapping(mapping_file(tmp_path, match=long))
    assert "(cut; 901 characters in all) does not compile: missing )" in str(raised.value)
    assert len(str(raised.value)) < len(str(tmp_path)) + QUOTED_LENGTH + 200


def test_matching_is_what_the_mapping_documentation_says(tmp_path):
    mapping = read_mapping(mapping_file(
        tmp_path, match=r"(?P<kind>Inf|Mtn) (?P<size>Div|Bde)", location=r"(?P<zone>[A-Za-z]+) Mountain",
        ignore="Marker"))
    match, = mapping.matches
    # <match> and <ignore> are searched for anywhere in the name
    assert match.pattern.search("1st Inf Div (Axis)").groupdict() == {"kind": "Inf", "size": "Div"}
    assert mapping.ignores[0].applies("Turn Marker 3", {})
    assert not mapping.ignores[0].applies("Turn marker", {})
    # <pattern match> must cover the whole location name
    assert mapping.location_rule("Main", "Serbia Mountain")[1]["zone"] == "Serbia"
    assert mapping.location_rule("Main", "Serbia Mountain Pass") is None
    assert mapping.location_rule("Main", "North Serbia Mountain") is None
    # the leftmost alternative wins, as in Python
    assert compile_user_pattern("(?P<word>Ax|Axis)").search("Axis").groupdict() == {"word": "Ax"}
    # a group that took no part is None, as in Python
    assert compile_user_pattern("(?P<a>x)?(?P<b>y)").fullmatch("y").groupdict() == {"a": None, "b": "y"}


def test_the_documented_differences_from_python_hold():
    assert compile_user_pattern(r"^\w+$").fullmatch("Žepa") is None
    assert compile_user_pattern(r"^\pL+$").fullmatch("Žepa") is not None
    assert compile_user_pattern(r"^[\p{L}\p{N}_]+$").fullmatch("Žepa_2") is not None
    assert compile_user_pattern(r"^Axis$").search("Axis\n") is None
    assert compile_user_pattern(r"Axis\z").search("Axis") is not None
    assert compile_user_pattern(r"(?i)^axis$").fullmatch("AXIS") is not None
    assert compile_user_pattern(r"(?s)^a.b$").fullmatch("a\nb") is not None


def test_the_refusal_prints_nothing_of_re2s_own(tmp_path, capfd):
    with pytest.raises(MappingError):
        read_mapping(mapping_file(tmp_path, match=r"(?=a)"))
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


def test_a_compiled_pattern_survives_pickling_and_copying():
    pattern = compile_user_pattern(r"^(?P<zone>[A-Za-z]+) Mountain$")
    for copied in (pickle.loads(pickle.dumps(pattern)), copy.deepcopy(pattern)):
        assert copied == pattern and dict(copied.groupindex) == {"zone": 1}
        assert copied.fullmatch("Serbia Mountain").groupdict() == {"zone": "Serbia"}

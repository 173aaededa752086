"""Module mapping files: the shipped ones parse; broken ones fail when read, with their file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.saves.vassal.mapping import (
    MappingError,
    Table,
    ValueProblem,
    compile_template,
    parse_mapping,
    read_mapping,
)

ROOT = Path(__file__).resolve().parents[2]
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<mapping xmlns="urn:referee:mapping:1" version="1" game="tito">\n'


def mapping_text(pieces: str = '  <attribute name="type" value="infantry"/>\n', locations: str = "",
                 tables: str = "", state: str = "", module: str = '<module name="M"/>') -> str:
    return (HEAD + f"  {module}\n  <map href=\"map.xml\"/>\n{tables}{state}  <pieces>\n{pieces}  </pieces>\n"
            f"  <locations>\n{locations}  </locations>\n</mapping>\n")


def parse(text: str):
    return parse_mapping(text.encode(), "club.xml", Path("/clubs"))


@pytest.mark.parametrize("game", ["tito", "tww", "awaw"])
def test_the_shipped_mappings_parse_and_name_existing_maps(game):
    mapping = read_mapping(ROOT / "plugin" / game / "mappings" / "vassal-mapping.xml")
    assert mapping.game == game
    assert mapping.map_path.is_file()
    assert mapping.attributes and (mapping.location_patterns or mapping.exact_locations)


def test_tito_mapping_turns_region_names_into_location_ids():
    mapping = read_mapping(ROOT / "plugin" / "tito" / "mappings" / "vassal-mapping.xml")

    def location(name):
        rule, values = mapping.location_rule("Yugoslavia", name)
        return "skip" if rule.skip else rule.template.render(values, mapping.tables)

    assert location("Serbia Axis Mountain") == "serbia/mountain/axis"
    assert location("Bosnia Chetnik Hide-away") == "bosnia/hide-away/chetnik"
    assert location("Montenegro Neutral Chetniks") == "montenegro/neutral-chetnik"
    assert location("Bosnia: Banja Luka Yugoslav") == "bosnia/banja-luka/yugoslav"
    assert location("Dead Pile") == "skip"
    assert mapping.location_rule("Yugoslavia", "Adriatic Sea") is None


def test_templates_filters_and_braces():
    tables = {"zones": Table("zones", {"Srb": "serbia"})}
    template = compile_template("{{{zone|map:zones}}}/{column|add:-1|pad:2}{row|number}-{name|slug}-{name|upper}",
                                allowed={"zone", "column", "row", "name"}, tables=tables, where="t")
    assert template.render({"zone": "Srb", "column": "05", "row": "007", "name": "Banja Luka"}, tables) == \
        "{serbia}/047-banja-luka-BANJA LUKA"
    assert template.render({"zone": "Srb", "column": None, "row": "1", "name": ""}, tables) == "{serbia}/1--"
    with pytest.raises(ValueProblem, match="'Xyz' is not in the table 'zones'"):
        template.render({"zone": "Xyz", "column": "1", "row": "1", "name": "a"}, tables)
    with pytest.raises(ValueProblem, match="needs a whole number, not 'A'"):
        template.render({"zone": "Srb", "column": "A", "row": "1", "name": "a"}, tables)


@pytest.mark.parametrize("text, message", [
    ("{zone|shout}", "'shout' is not a filter"),
    ("{nowhere}", "uses '{nowhere}', which is not a group it can see (it can use: zone)"),
    ("{zone|map:missing}", "names no <table>"),
    ("{zone|pad:x}", "the filter 'pad' needs a whole number"),
    ("{zone|lower:1}", "takes no argument"),
    ("zone}", "a lone '}'"),
    ("{}", "names no group"),
])
def test_templates_that_cannot_work_are_refused(text, message):
    with pytest.raises(ValueError, match=message.replace("{", r"\{").replace("}", r"\}").replace("(", r"\(")
                       .replace(")", r"\)")):
        compile_template(text, allowed={"zone"}, tables={}, where="t")


@pytest.mark.parametrize("pieces, locations, message, line", [
    # schema errors: the schema's own message with its line
    ('  <attribute name="Type" value="x"/>\n', "", "does not match the mapping.xsd schema", 6),
    ('  <attribut name="type"/>\n', "", "does not match the mapping.xsd schema", 6),
    ("", '  <pattern id="x"/>\n', "The attribute 'match' is required", 9),
    # what the schema cannot say
    ('  <match pattern="^(?P&lt;kind&gt;[A-Z]+$"/>\n', "", "does not compile: missing )", 6),
    ("", '  <pattern match="(" id="x"/>\n', "the pattern '(' does not compile", 9),
    ('  <attribute name="type" property="T" group="g"/>\n', "", "has property and group; give one source", 6),
    ('  <attribute name="type"/>\n', "", "needs a source", 6),
    ('  <attribute name="type" group="kind"/>\n', "", "reads the group 'kind', which no <match> pattern defines", 6),
    ('  <attribute name="type" property="T" translate="words"/>\n', "", "translate='words' names no <table>", 6),
    ('  <attribute name="location" property="T"/>\n', "", "the attribute 'location' is not mapped", 6),
    ('  <attribute name="type" value="{kind}"/>\n', "", "uses '{kind}', which is not a group it can see", 6),
    ('  <ignore equals="x"/>\n', "", "needs name-pattern= or property=", 6),
    ('  <match source="property" pattern="x"/>\n', "", "source=\"property\"", 6),
    ('  <match pattern="(?P&lt;name&gt;x)"/>\n', "", "the group name 'name' is taken", 6),
    ("", '  <location vassal="A"/>\n', "needs either id= or skip=\"yes\"", 9),
    ("", '  <location vassal="A" id="a"/>\n  <location vassal="A" id="b"/>\n', "mapped twice (first at line 9)", 10),
    ("", '  <pattern match="(?P&lt;zone&gt;\\w+)" id="{zone|slugify}"/>\n', "'slugify' is not a filter", 9),
    ("", '  <pattern match="(?P&lt;map&gt;\\w+)" id="x"/>\n', "the group name 'map' is taken", 9),
])
def test_broken_mappings_name_the_file_and_line(pieces, locations, message, line):
    with pytest.raises(MappingError) as raised:
        parse(mapping_text(pieces=pieces or '  <attribute name="type" value="infantry"/>\n', locations=locations))
    assert message in str(raised.value)
    assert raised.value.line == line
    assert str(raised.value).startswith(f"club.xml, line {line}")


def test_state_rules_are_checked():
    with pytest.raises(MappingError, match="needs exactly one of position="):
        parse(mapping_text(state='  <state>\n    <global property="Turn"/>\n  </state>\n'))
    with pytest.raises(MappingError, match="separator= splits a property into several facts; it needs fact="):
        parse(
            mapping_text(state='  <state>\n    <global property="Turn" position="turn" separator=","/>\n  </state>\n')
        )
    with pytest.raises(MappingError, match=r"uses '\{turn\}'"):
        parse(
            mapping_text(state='  <state>\n    <global property="Turn" position="turn" value="{turn}"/>\n  </state>\n')
        )


def test_tables_with_a_word_twice_and_duplicate_names():
    twice = '  <table name="t">\n    <entry vassal="A" ours="a"/>\n    <entry vassal="A" ours="b"/>\n  </table>\n'
    with pytest.raises(MappingError, match="the table 't' lists 'A' twice") as raised:
        parse(mapping_text(tables=twice))
    assert raised.value.line == 7
    double = '  <table name="t"/>\n  <table name="t"/>\n'
    with pytest.raises(MappingError, match="Duplicate key-sequence"):
        parse(mapping_text(tables=double))


def test_unusable_files():
    with pytest.raises(MappingError, match="DOCTYPE or entities"):
        parse('<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY e "x">]><mapping/>')
    with pytest.raises(MappingError, match="not well-formed"):
        parse(HEAD + "<module")
    with pytest.raises(MappingError, match=r"the root element is <position>, not a <mapping>"):
        parse('<position xmlns="urn:referee:save:1"/>')
    with pytest.raises(MappingError, match="is a URL"):
        parse(mapping_text().replace('href="map.xml"', 'href="http://example.org/map.xml"'))


def test_missing_and_oversized_mapping_files(tmp_path, monkeypatch):
    with pytest.raises(MappingError, match="no such file"):
        read_mapping(tmp_path / "absent.xml")
    from validator.saves.vassal import mapping as mapping_module

    monkeypatch.setattr(mapping_module, "MAX_MAPPING_BYTES", 100)
    big = tmp_path / "big.xml"
    big.write_text(mapping_text(), encoding="utf-8")
    with pytest.raises(MappingError, match="larger than 100 bytes"):
        read_mapping(big)


@pytest.mark.parametrize(
    "low, high, version, accepted",
    [
        (None, None, None, True),
        ("1.0", None, "1.0", True),
        ("1.0", None, "0.9", False),
        ("1.0", "1", "1.9.3", True),
        ("1.0", "1.9", "1.10", False),
        ("1.2", "1.9", "1.10", False),
        ("1.2", "1.10", "1.9", True),
        ("1.0", "2", "2.0-beta", True),
        ("1.0", None, None, False),
    ],
)
def test_version_ranges(low, high, version, accepted):
    attributes = "".join(f' {name}="{value}"' for name, value in (("min-version", low), ("max-version", high)) if value)
    mapping = parse(mapping_text(module=f'<module name="M"{attributes}/>'))
    assert mapping.accepts_version(version) is accepted


def test_the_worked_example_of_the_documentation_parses_and_maps():
    text = (ROOT / "docs" / "vassal-mapping.md").read_text(encoding="utf-8")
    example = text[text.index("## A worked example: Tito") :]
    example = example[example.index("```xml") + len("```xml") :]
    example = example[: example.index("```")].strip()
    mapping = parse_mapping(example.encode(), "club-mapping.xml", ROOT / "plugin" / "tito" / "maps")
    rule, values = mapping.location_rule("Yugoslavia", "Bosnia: Banja Luka Axis")
    assert rule.template.render(values, mapping.tables) == "bosnia/banja-luka/axis"
    assert mapping.map_path == ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"
    assert mapping.accepts_version("2.3") and not mapping.accepts_version("3.0")


@pytest.mark.parametrize(
    "version, accepted",
    [
        ("1.²", False),  # "²" is no number (str.isdigit() says it is; int() refuses it): a word, after every number
        ("1.١", False),  # nor is "١" (int() would read it as 1)
        ("1." + "9" * 5000, False),  # int() refuses more than 4,300 digits; compared as digits, it is just large
        ("1.0009", True),
        ("1.09", True),
    ],
)
def test_versions_compare_ascii_digits_as_numbers_and_anything_else_as_words(version, accepted):
    mapping = parse(mapping_text(module='<module name="M" min-version="1.0" max-version="1.10"/>'))
    assert mapping.accepts_version(version) is accepted

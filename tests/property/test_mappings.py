"""Module mappings, damaged: parsed or refused with an input error, and a parsed one exports or refuses a save.

A mapping that parses is used: the Tito sample save is translated through it,
so a damaged table, template or pattern is met by the translation as well as
by the parser.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from validator.intake import Reading, Submission, read_submission
from validator.saves.vassal.mapping import Mapping, parse_mapping

from tests.property.mutations import mutations, xml_mutations
from tests.property.reading import ROOT, read_or_refuse
from tests.property.vassal_samples import saves

MAPPINGS = tuple(sorted((ROOT / "plugin").glob("*/mappings/vassal-mapping.xml")))
FOLDER = Path(tempfile.mkdtemp(prefix="referee-property-mappings-"))


def _damaged(damage=mutations):
    return st.sampled_from(MAPPINGS).flatmap(lambda path: st.tuples(st.just(path), damage(path.read_bytes())))


def test_the_shipped_mappings_parse():
    assert len(MAPPINGS) == 3
    for path in MAPPINGS:
        assert parse_mapping(path.read_bytes(), str(path), path.parent).matches


@given(_damaged())
def test_a_damaged_mapping_is_parsed_or_refused(damaged):
    path, data = damaged
    read_or_refuse(parse_mapping, data, "damaged-mapping.xml", path.parent, expected=Mapping)


@given(_damaged(xml_mutations))  # well-formed, so that more of them reach the translation
def test_a_damaged_mapping_translates_its_games_save_or_refuses(damaged):
    path, data = damaged
    game = path.parent.parent.name
    _game, save, module = next(sample for sample in saves() if sample[0] == game)
    mapping = FOLDER / game / "mappings" / "damaged-mapping.xml"
    mapping.parent.mkdir(parents=True, exist_ok=True)
    for map_file in (path.parent.parent / "maps").glob("*.xml"):
        (FOLDER / game / "maps").mkdir(exist_ok=True)
        (FOLDER / game / "maps" / map_file.name).write_bytes(map_file.read_bytes())
    mapping.write_bytes(data)
    submission = Submission(save=save.read_bytes(), name=save.name, game=game, module=module, mapping=mapping)
    read_or_refuse(read_submission, submission, expected=Reading)

"""Our map XML, damaged: a save that uploads it with itself is read or refused with an input error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from validator.intake import Reading, Submission, read_submission
from validator.saves.uploaded_maps import UploadedMap

from tests.property.mutations import mutations
from tests.property.reading import EXAMPLES, ROOT, read_or_refuse

SAVES_AND_MAPS = [
    (EXAMPLES / "tito" / "opening-setup.xml", ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"),
    (EXAMPLES / "awaw" / "partisans-legal.xml", ROOT / "plugin" / "awaw" / "maps" / "awaw-map.xml"),
    (EXAMPLES / "tww" / "legal.xml", ROOT / "plugin" / "tww" / "maps" / "tww-map.xml"),
]


def _submission(save, map_data: bytes) -> Submission:
    return Submission(save=save.read_bytes(), name=save.name, map=UploadedMap(map_data, "uploaded-map.xml"))


def test_each_save_is_read_with_its_map_uploaded_beside_it():
    for save, map_path in SAVES_AND_MAPS:
        reading = read_submission(_submission(save, map_path.read_bytes()))
        assert reading.map.origin == "uploaded" and reading.position.pieces


@given(st.sampled_from(SAVES_AND_MAPS).flatmap(
    lambda pair: st.tuples(st.just(pair[0]), mutations(pair[1].read_bytes()))))
def test_a_damaged_map_is_read_or_refused(damaged):
    save, map_data = damaged
    read_or_refuse(read_submission, _submission(save, map_data), expected=Reading)

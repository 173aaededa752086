"""Our save XML, damaged: read (the command line's way, map beside the save) or refused with an input error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from validator.intake import Reading, Submission, read_submission
from validator.limits import WEB_LIMITS
from validator.model import Position
from validator.saves.xml_reader import folder_resolver, read_position

from tests.property.mutations import mutations
from tests.property.reading import EXAMPLES, FIXTURES, read_or_refuse

SAVES = sorted(EXAMPLES.glob("*/*.xml")) + sorted(FIXTURES.glob("tito/*/*.xml"))[:12] + sorted(
    FIXTURES.glob("awaw/*/*.xml"))[:12] + sorted(FIXTURES.glob("tww/*/*.xml"))[:12]


def _damaged(path_strategy):
    return path_strategy.flatmap(lambda path: st.tuples(st.just(path), mutations(path.read_bytes())))


def test_the_samples_are_saves():
    assert len(SAVES) >= 30
    for path in SAVES:
        assert isinstance(read_position(path.read_bytes(), str(path), folder_resolver(path.parent)), Position)


@given(_damaged(st.sampled_from(SAVES)))
def test_a_damaged_save_is_read_or_refused(damaged):
    path, data = damaged
    read_or_refuse(read_position, data, path.name, folder_resolver(path.parent), expected=Position)


@given(_damaged(st.sampled_from(SAVES)))
def test_a_damaged_upload_is_read_or_refused_at_the_web_limits(damaged):
    path, data = damaged
    read_or_refuse(read_submission, Submission(save=data, name=path.name, limits=WEB_LIMITS), expected=Reading)

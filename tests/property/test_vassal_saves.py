"""VASSAL saves and logs, damaged: read, and translated through the game's mapping, or refused with an input error.

Three layers are damaged: the zip's bytes, the ``savedGame`` entry's
obfuscated bytes (rewrapped in a good zip), and the command text itself
(fields changed to values past their edges, commands repeated or dropped),
written back in each of VASSAL's formats.
"""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from validator.intake import Reading, Submission, read_submission
from validator.limits import WEB_LIMITS
from validator.saves.vassal.model import SavedGame
from validator.saves.vassal.reader import GameLog, read_log, read_saved_game, replay

from tests.property.mutations import byte_mutations, command_text_mutations
from tests.property.reading import read_or_refuse
from tests.property.vassal_samples import command_text, saves, zipped
from vassal_save_writer import obfuscate

FORMATS = ("VCSK", "VOBS", "VOXZ", "plain")


def _name(save) -> str:
    return f"damaged{save.suffix}"


def _read_every_way(game: str, save, module, data: bytes) -> None:
    read_or_refuse(read_saved_game, io.BytesIO(data), name=_name(save), expected=SavedGame)
    read_or_refuse(read_log, io.BytesIO(data), name=_name(save), expected=GameLog)
    read_or_refuse(replay, io.BytesIO(data), name=_name(save), expected=tuple)
    submission = Submission(save=data, name=_name(save), game=game, module=module, limits=WEB_LIMITS)
    read_or_refuse(read_submission, submission, expected=Reading)


def test_the_samples_are_read_and_translated():
    for game, save, module in saves():
        reading = read_submission(Submission(save=save.read_bytes(), name=save.name, game=game, module=module))
        assert reading.position.pieces, save


@given(st.sampled_from(saves()).flatmap(
    lambda sample: st.tuples(st.just(sample), byte_mutations(sample[1].read_bytes()))))
def test_a_damaged_zip_is_read_or_refused(damaged):
    (game, save, module), data = damaged
    _read_every_way(game, save, module, data)


@given(st.sampled_from(saves()).flatmap(lambda sample: st.tuples(
    st.just(sample), st.sampled_from(FORMATS).flatmap(
        lambda fmt: byte_mutations(obfuscate(command_text(sample[1]), fmt))))))
def test_a_damaged_saved_game_entry_is_read_or_refused(damaged):
    (game, save, module), entry = damaged
    _read_every_way(game, save, module, zipped({"savedGame": entry}))


@given(st.sampled_from(saves()).flatmap(lambda sample: st.tuples(
    st.just(sample), st.sampled_from(FORMATS), command_text_mutations(command_text(sample[1])))))
def test_damaged_commands_are_read_or_refused(damaged):
    (game, save, module), fmt, text = damaged
    _read_every_way(game, save, module, zipped({"savedGame": obfuscate(text, fmt)}))

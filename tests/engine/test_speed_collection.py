"""The collector is paused while a save is read and left as it was, however the read ends."""

from __future__ import annotations

import gc

import pytest

from validator.collection import collector_paused
from validator.saves.errors import SaveInputError
from validator.saves.xml_reader import read_position


def _no_map(href, game):
    raise AssertionError("no map is asked for")


def test_the_collector_is_off_inside_and_back_on_after_a_read_that_fails():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(SaveInputError):
        read_position(b"<position", "broken.xml", _no_map)
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_caller_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        with pytest.raises(SaveInputError):
            read_position(b"<position", "broken.xml", _no_map)
        assert not gc.isenabled()
    finally:
        gc.enable()

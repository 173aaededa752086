"""The web's smaller limits still admit every real save and module of ../shared (the figures docs/limits.md gives).

The largest real save (Paths of Glory, Historical10-5) inflates to 28 MB of
savedGame entry and 14 MB of command text, with about 5,000 pieces, stacks
and decks: the web's figures (32 MiB, 16 MiB, 10,000) are above each, and
the command line's far above.
"""

from __future__ import annotations

import pytest

from validator.limits import CLI_LIMITS, WEB_LIMITS
from validator.saves.vassal.module import read_module
from validator.saves.vassal.reader import read_saved_game

from tests.vassal_corpus import corpus_file

SAVES = [
    ("paths-of-glory", "Classic10-0.vsav"),
    ("paths-of-glory", "Historical10-5.vsav"),
    ("paths-of-glory", "DeluxeHistorical10-8.vsav"),
    ("for-the-people", "1864-3-5.vsav"),
    ("inferno", "Scen4-ArbiaColoratainRosso-Late1260.vsav"),
    ("nevsky", "Scenario_Peipus_1242.vsav"),
    ("a3r-awaw", "A3R_1939_Scenario_Template_Rev1702_AWAW.vsav"),
]
BUILD_FILES = ["paths-of-glory", "nevsky", "inferno", "for-the-people", "flashpoint-south-china-sea",
               "imperial-struggle"]


@pytest.mark.parametrize("folder, name", SAVES)
def test_every_real_save_reads_the_same_under_the_web_limits(folder, name):
    path = corpus_file(folder, name)
    on_the_web = read_saved_game(path, limits=WEB_LIMITS)
    on_the_command_line = read_saved_game(path, limits=CLI_LIMITS)
    assert on_the_web.pieces and len(on_the_web.pieces) == len(on_the_command_line.pieces)
    assert len(on_the_web.stacks) == len(on_the_command_line.stacks)


@pytest.mark.parametrize("folder", BUILD_FILES)
def test_every_real_build_file_reads_under_the_web_limits(folder):
    module = read_module(corpus_file(folder, "buildFile.xml"), limits=WEB_LIMITS)
    assert module.maps

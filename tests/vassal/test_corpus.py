"""Every real module and save of ../shared/vassal-corpus/ reads, and the module summary is right on spot checks.

The expected values were read by hand from each build file (the lines are
named in the comments) and from the corpus README, never from the reader's
own output.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from validator.saves.vassal.extensions import with_extensions
from validator.saves.vassal.grids import THIRD_REICH_OBLIQUE, HexGrid, SquareGrid, ZonedGrid
from validator.saves.vassal.locations import location_of
from validator.saves.vassal.module import read_module
from validator.saves.vassal.module_summary import render_text, summarise
from validator.saves.vassal.reader import read_saved_game

from tests.vassal_corpus import corpus_file

MODULES = {
    "a3r-awaw": "buildFile-a3r.yml", "asl-pbs": "buildFile.xml", "flashpoint-south-china-sea": "buildFile.xml",
    "for-the-people": "buildFile.xml", "imperial-struggle": "buildFile.xml", "inferno": "buildFile.xml",
    "nevsky": "buildFile.xml", "paths-of-glory": "buildFile.xml",
}
# The corpus README's counts of AddPiece commands that are neither stacks nor decks, and of decks.
SAVES = {
    ("a3r-awaw", "A3R_1939_Scenario_Template_Rev1702_AWAW.vsav"): (418, 0),
    ("for-the-people", "1864-3-5.vsav"): (703, 8),
    ("inferno", "Scen4-ArbiaColoratainRosso-Late1260.vsav"): (396, 36),
    ("nevsky", "Scenario_Peipus_1242.vsav"): (330, 34),
    ("paths-of-glory", "Classic10-0.vsav"): (786, 12),
    ("paths-of-glory", "Historical10-5.vsav"): (843, 13),
    ("paths-of-glory", "DeluxeHistorical10-8.vsav"): (830, 13),
}


def module_of(folder: str):
    return read_module(corpus_file(folder, MODULES[folder]))


def _count(grid, kind: str) -> int:
    if grid is None:
        return 0
    if isinstance(grid, ZonedGrid):
        return (len(grid.zones) if kind == "zones" else 0) + sum(_count(z.grid, kind) for z in grid.zones) + \
            _count(grid.background, kind)
    return len(grid.regions) if kind == "regions" and hasattr(grid, "regions") else 0


@pytest.mark.parametrize("folder", sorted(MODULES))
def test_every_module_reads_and_summarises(folder):
    module = module_of(folder)
    summary = summarise(module)
    text = render_text(summary)
    assert summary["maps"] and text.startswith(str(module.source))
    assert not [p for p in module.piece_slots if p.problem], "every piece slot's traits read"


@pytest.mark.parametrize(("folder", "save"), sorted(SAVES))
def test_every_save_reads_with_its_module(folder, save):
    module = module_of(folder)
    game = read_saved_game(corpus_file(folder, save))
    pieces, decks = SAVES[(folder, save)]
    assert (len(game.pieces), len(game.decks)) == (pieces, decks)
    names = {location_of(module, p.map, p.x, p.y, game.boards) for p in game.pieces if p.map in module.maps}
    assert names - {"offboard", "unknown"}, "some pieces stand at named places"


# Counts of <Zone>, <Region>, <PrototypeDefinition> and <PieceSlot> elements in each build file
# (grep -o ... | wc -l); ASL PBS's PBS Aider lists the region Range twice at the same point
# (lines 98-99), which VASSAL keeps once.
COUNTS = {
    "a3r-awaw": (9, 0, 7, 153), "asl-pbs": (0, 25, 1, 82), "flashpoint-south-china-sea": (34, 107, 309, 70),
    "for-the-people": (46, 380, 287, 497), "imperial-struggle": (56, 260, 214, 437), "inferno": (63, 172, 587, 236),
    "nevsky": (66, 154, 453, 231), "paths-of-glory": (45, 996, 245, 782),
}


@pytest.mark.parametrize("folder", sorted(COUNTS))
def test_zones_regions_prototypes_and_piece_slots_are_all_read(folder):
    module = module_of(folder)
    boards = [board for definition in module.maps.values() for board in definition.boards]
    counted = (sum(_count(b.grid, "zones") for b in boards), sum(_count(b.grid, "regions") for b in boards),
               len(module.prototypes), len(module.piece_slots))
    assert counted == COUNTS[folder]


def test_paths_of_glory_maps_and_the_two_main_boards():
    module = module_of("paths-of-glory")
    assert list(module.maps) == ["Map", "Allied Powers", "Central Powers", "CP Forces", "AP Forces",
                                 "Permanently Eliminated", "Expansion Cards", "Preferences"]
    assert [board.name for board in module.maps["Map"].boards] == ["Classic Map", "Deluxe Historical Map"]


def test_a3r_main_board_is_a_sideways_hex_grid_numbered_by_the_third_reich_class():
    module = module_of("a3r-awaw")
    board = module.maps["Map Window"].board("A3R European Front")
    assert isinstance(board.grid, ZonedGrid) and [z.name for z in board.grid.zones][:3] == [
        "US Box", "Murbansk Box", "SW Box"]  # lines 25-27
    grid = board.grid.background
    assert isinstance(grid, HexGrid) and grid.sideways and (grid.x0, grid.y0, grid.dy) == (35, 23, 72.0)  # line 34
    numbering = grid.numbering
    assert numbering.custom == THIRD_REICH_OBLIQUE and numbering.known  # line 35
    assert (numbering.h_type, numbering.h_off, numbering.v_type, numbering.v_off) == ("A", -1, "N", 15)


def test_a3r_hex_names_follow_the_third_reich_numbering():
    """The save's Belgian units at (1139, 845), worked by hand from the grid of line 34.

    Sideways, so x and y swap: column = floor((845 - 35) / 62.354 + 0.5) = 13,
    odd, so row = round((1139 - 23 - 36) / 72) = 15, plus 1 for the stagger =
    16; the Third Reich class lowers it by (13 - 1) / 2 = 6 to 10.  Names add
    the offsets: column 13 - 1 = 12 is M, row 10 + 15 = 25: M25.
    """
    module = module_of("a3r-awaw")
    assert location_of(module, "Map Window", 1139, 845) == "M25"
    # (1103, 783): column floor((783 - 35) / 62.354 + 0.5) = 12, even, so row (1103 - 23) / 72 = 15,
    # lowered by int((12 - 1) / 2) = 5 to 10: column 11 is L, row 25.
    assert location_of(module, "Map Window", 1103, 783) == "L25"


def test_a3r_scenario_card_is_unknown_without_board_images():
    """Six boards in two columns (the README): without their images the layout has no sizes."""
    module = module_of("a3r-awaw")
    game = read_saved_game(corpus_file("a3r-awaw", "A3R_1939_Scenario_Template_Rev1702_AWAW.vsav"))
    card = [p for p in game.pieces if p.map == "Scenario Card"]
    assert len(card) == 175 and {location_of(module, p.map, p.x, p.y, game.boards) for p in card} == {"unknown"}


def test_square_grids_with_their_numbering():
    hand = module_of("for-the-people").maps["Confederate Hand"].boards[0].grid  # line 2514 and its numbering
    assert isinstance(hand, SquareGrid) and (hand.dx, hand.dy) == (386.0, 536.0)
    assert (hand.numbering.h_off, hand.numbering.v_off, hand.numbering.h_leading) == (1, 0, 0)
    cloaking = module_of("asl-pbs").maps["PBS Cloaking Display"].boards[0].grid
    assert isinstance(cloaking, SquareGrid) and cloaking.numbering is None


def test_a3r_partisan_slots_with_their_prototypes():
    module = module_of("a3r-awaw")
    slots = {slot.name: slot for slot in module.piece_slots}
    assert (slots["UK Part 1-3"].image, slots["UK Part 1-3"].prototypes) == ("br-part", ("Ground", "KIA", "Basic"))
    assert slots["RUS Part 1-3"].folder == "Counters / Units / Russia"  # line 182's palette folders
    naval = next(p for p in module.prototypes if p.name == "Naval")
    assert [name for name, _ in naval.layers] == ["Sunk", "Damaged", "Inverted"]  # line 308


def test_an_extension_reads_alone_and_names_its_module():
    extension = module_of("asl-pbs")
    assert (extension.extends, extension.version) == ("VASL", "0.99a")
    assert list(extension.maps) == ["PBS Tracker Sheet", "PBS Aider", "PBS Cloaking Display", "PBS Sides"]


def test_an_extension_for_another_module_is_refused_by_name():
    from validator.saves.vassal.errors import VassalFormatError

    with pytest.raises(VassalFormatError, match="is an extension for the module 'VASL'"):
        with_extensions(module_of("a3r-awaw"), [module_of("asl-pbs")])


def test_vassal_module_command_prints_text_and_json():
    path = corpus_file("a3r-awaw", "buildFile-a3r.yml")
    text = subprocess.run([sys.executable, "-m", "validator.cli", "vassal", "module", str(path)],
                          capture_output=True, text=True, check=False)
    assert text.returncode == 0, text.stderr
    assert "numbered by ThirdReich.ObliqueHexGridNumbering" in text.stdout and "UK Part 1-3" in text.stdout
    data = subprocess.run([sys.executable, "-m", "validator.cli", "vassal", "module", str(path), "--format", "json"],
                          capture_output=True, text=True, check=False)
    summary = json.loads(data.stdout)
    assert summary["module"]["name"] == "A3R with AWAW Map"
    board = summary["maps"][0]["boards"][0]
    assert board["grid"]["background"]["numbering"]["class"] == THIRD_REICH_OBLIQUE

"""A real Tito save on the sample module, made as wide as a test needs: one unit carries ``extra`` marker keys.

A Marker trait's keys are one list of the game, counted under the
``list_items`` limit (10,000 on the web, 100,000 on the command line), and
the Tito mapping reads only the keys it knows, so the same position is
checked whatever the width: a small file that one set of limits admits and
another refuses, before any work.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "vassal"))  # the VASSAL tests' helpers are plain modules there

from modules import tito_game, tito_module, tito_unit  # noqa: E402

GERMAN = {"Nationality": "German", "Unit": "Inf Div", "CF": "12", "Designation": "704"}
STATE = {"Scenario": "Campaign", "Turn": "4", "Phase": "Axis Combat", "Phasing": "Axis", "Tito": "Unidentified",
         "VP": "18"}


def wide_tito_save(folder: Path, extra: int) -> tuple[Path, Path]:
    """The sample Tito module and a save of one German division whose marker holds ``extra`` more keys."""
    folder.mkdir(parents=True, exist_ok=True)
    module = tito_module(folder)
    keys = {**GERMAN, **{f"Note{number}": "x" for number in range(extra)}}
    unit = tito_unit("de-704", "704th Division", "Serbia: Belgrade Axis", keys)
    return module, tito_game(folder / f"wide-{extra}.vsav", [unit], STATE)

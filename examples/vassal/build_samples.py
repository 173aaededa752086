"""Writes the sample VASSAL files beside this script: ``python examples/vassal/build_samples.py``.

Nobody has a real VASSAL module for the games Referee knows, so the project
ships small ones of its own for the README's tour: the sample Tito module,
two saves made from the hand-written Tito examples, and a short log.  They
are committed; a test (tests/vassal/test_sample_files.py) builds them afresh
and fails when the committed files differ, so rebuild them with this script
after changing the builders or the examples they come from.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sample_modules import tito_log_from_position, tito_module, tito_move, tito_save_from_position

HERE = Path(__file__).resolve().parent
TITO_EXAMPLES = HERE.parent / "tito"

LOG_STEPS = [
    tito_move("de-718", "Bosnia: Sarajevo Axis", "Bosnia: Banja Luka Axis", "* 718th Infantry Division to Banja Luka"),
    tito_move("it-emilia", "Slovenia: Ljubljana Axis", "Slovenia: Maribor Axis", "* Emilia Division to Maribor"),
]


def build(folder: Path) -> list[Path]:
    """Write every sample file into ``folder``; returns their paths in the order written."""
    return [
        tito_module(folder),
        tito_save_from_position(TITO_EXAMPLES / "opening-setup.xml", folder / "tito-opening.vsav"),
        tito_save_from_position(TITO_EXAMPLES / "overstacked.xml", folder / "tito-overstacked.vsav"),
        tito_log_from_position(TITO_EXAMPLES / "opening-setup.xml", folder / "tito-opening-moves.vlog", LOG_STEPS),
    ]


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for path in build(folder):
        print(f"wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

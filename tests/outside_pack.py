"""Installing a game pack the way pip leaves one: a dist-info folder whose entry_points.txt names the game.

``importlib.metadata`` finds a distribution by its ``*.dist-info`` folder on
``sys.path`` and reads its entry points from there, so a test can install a
pack into a temporary folder, put that folder on the path, and have the
registry load the pack through the same entry point an installed one uses.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from validator.games import ENTRY_POINT_GROUP

EXAMPLE_GAME = "fen"
EXAMPLE_ENTRY_POINT = "tests.example_game:game"


def install(folder: Path, distribution: str, games: Mapping[str, str], version: str = "1.0") -> Path:
    """Write ``<distribution>-<version>.dist-info`` into ``folder``: its metadata and one entry point per game id."""
    info = folder / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    metadata = f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n"
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    lines = [f"[{ENTRY_POINT_GROUP}]", *(f"{game_id} = {target}" for game_id, target in games.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return info


@contextmanager
def on_path(folder: Path) -> Iterator[None]:
    """``folder`` at the front of ``sys.path`` while the block runs."""
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        importlib.invalidate_caches()

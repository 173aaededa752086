"""Tito saves written for the move tests: a few pieces on the sample map, at a Game-Turn and phase."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"


def tito_save(path: Path, pieces: list[str], turn: int = 5, phase: str = "yugoslav-movement",
              scenario: str = "campaign") -> Path:
    """A save of ``pieces`` (each the attributes of one <piece>) on the sample map."""
    body = "\n".join(f"    <piece {piece}/>" for piece in pieces)
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<position xmlns="urn:referee:save:1" version="1" game="tito" scenario="{scenario}" turn="{turn}" '
        f'phase="{phase}">\n  <map href="{SAMPLE_MAP.as_posix()}"/>\n  <pieces>\n{body}\n  </pieces>\n</position>\n',
        encoding="utf-8",
    )
    return path


def partisan(location: str, piece_id: str = "p1", size: str = "group", name: str = "Partisan group") -> str:
    return f'id="{piece_id}" name="{name}" nationality="partisan" size="{size}" strength="1" location="{location}"'

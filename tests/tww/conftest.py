"""Helpers for The Third World War tests: the schematic fixture map and saves built on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from validator import runner
from validator.saves.xml_reader import read_position_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tww"
MAP = FIXTURES.parents[2] / "plugin" / "tww" / "maps" / "tww-map.xml"


def unit(ident, side, nation, at, kind="infantry", **extra) -> str:
    """A <piece> element; keyword arguments become attributes (underscores read as hyphens)."""
    text = f'<piece id="{ident}" name="{ident}" nationality="{nation}" type="{kind}"'
    text += f' side="{side}"' if side else ""
    text += f' location="{at}"' if at else ""
    text += "".join(f' {key.replace("_", "-")}="{value}"' for key, value in extra.items())
    return text + "/>"


def save_text(
    pieces=(), facts=(), events=(), turn="3", phase="movement", phasing="nato", map_part='<map href="map.xml"/>'
):
    attributes = "".join(
        f' {name}="{value}"' for name, value in (("turn", turn), ("phase", phase), ("phasing", phasing)) if value
    )
    lines = [f'<position xmlns="urn:referee:save:1" version="1" game="tww"{attributes}>']
    lines += [f'  <fact name="{name}" value="{value}"/>' for name, value in facts]
    lines += [f"  <event {event}/>" for event in events]
    lines += [f"  {map_part}", "  <pieces>"] + [f"    {piece}" for piece in pieces] + ["  </pieces>", "</position>"]
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + "\n".join(lines) + "\n"


@pytest.fixture
def write_save(tmp_path):
    """Write a save (text) beside a copy of the fixture map; returns its path."""
    shutil.copy(MAP, tmp_path / "map.xml")

    def write(text: str, name: str = "save.xml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def check_save(write_save):
    """Build, read and check a save; returns the report."""

    def run(**parts):
        return runner.check(read_position_file(write_save(save_text(**parts))))

    return run


def by_case(report, prefix: str, kind: str = "violation"):
    return [result for result in report.results if result.kind == kind and str(result.case).startswith(prefix)]

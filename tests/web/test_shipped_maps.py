"""An uploaded save finds its game's shipped map by the rule the command line follows.

An upload has no folder, so an href counts only by its last part, looked up
among the maps the game ships; no other file of the server is ever read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from validator import cli

from .conftest import api_upload

CHECKOUT = Path(__file__).resolve().parents[2]
EXAMPLE = CHECKOUT / "examples" / "tito" / "overstacked.xml"
SHIPPED_MAP = CHECKOUT / "plugin" / "tito" / "maps" / "tito-map.xml"
SHIPPED_HREF = "../../plugin/tito/maps/tito-map.xml"
TITO_MAPS = ", ".join(sorted(path.name for path in SHIPPED_MAP.parent.glob("*.xml")))
TITLE = "Tito and His Partisan Army (SPI)"


def save_naming(href: str) -> bytes:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert f'<map href="{SHIPPED_HREF}"/>' in text
    return text.replace(f'<map href="{SHIPPED_HREF}"/>', f'<map href="{href}"/>').encode("utf-8")


def map_line() -> int:
    text = EXAMPLE.read_text(encoding="utf-8")
    return text[: text.index("<map href")].count("\n") + 1


def judged(report: dict) -> list[tuple]:
    """What a report says, leaving out where its case pages are served."""
    return [
        (item["rule"], item["severity"], item["message"], item["location"], tuple(item["pieces"]))
        for key in ("violations", "findings") for item in report[key]
    ]


def command_line_report(save: Path, capsys) -> tuple[int, dict]:
    code = cli.main(["check", str(save), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("href", [SHIPPED_HREF, "tito-map.xml", "maps/tito-map.xml", "..\\maps\\tito-map.xml"])
def test_an_uploaded_example_is_checked_against_the_shipped_map(real_client, capsys, href):
    code, expected = command_line_report(EXAMPLE, capsys)
    response = api_upload(real_client, save_naming(href), name="overstacked.xml")
    assert response.status_code == 200, response.get_json()
    report = response.get_json()
    assert code == 1 and report["legal"] is False
    assert judged(report) == judged(expected)


def test_an_href_out_of_the_upload_is_refused_with_a_sentence(real_client):
    response = api_upload(real_client, save_naming("../../etc/passwd"), name="mine.xml")
    assert response.status_code == 400
    assert response.get_json() == {"error": (
        f"mine.xml, line {map_line()}: the map '../../etc/passwd' cannot be used: passwd: {TITLE} ships no map of "
        "that name; choose the map file in the form's map field (or send it as the API's map part) together with "
        f"the save, or name in href one of the maps the game ships: {TITO_MAPS}"
    )}


def test_a_server_path_in_an_href_reads_the_shipped_map_not_the_path(real_client, tmp_path, capsys):
    # A valid Tito map with every name changed sits at the path the href gives: reading it would change the report.
    decoy = tmp_path / "tito-map.xml"
    decoy.write_text(SHIPPED_MAP.read_text(encoding="utf-8").replace('name="', 'name="Decoy '), encoding="utf-8")
    _, expected = command_line_report(EXAMPLE, capsys)
    response = api_upload(real_client, save_naming(str(decoy)), name="overstacked.xml")
    assert response.status_code == 200, response.get_json()
    assert judged(response.get_json()) == judged(expected)
    assert "Decoy" not in json.dumps(response.get_json())


@pytest.mark.parametrize(
    "href", ["tito-map.xml", "elsewhere/tito-map.xml", SHIPPED_HREF, "club-map.xml", "maps", "tito-map.xml/"],
)
def test_the_command_line_and_the_web_agree_on_which_hrefs_find_a_map(real_client, tmp_path, capsys, href):
    save = tmp_path / "copied" / "overstacked.xml"
    save.parent.mkdir()
    save.write_bytes(save_naming(href))
    command_line_found = cli.main(["check", str(save)]) != 2
    capsys.readouterr()
    web_found = api_upload(real_client, save_naming(href), name="overstacked.xml").status_code == 200
    assert command_line_found == web_found

"""The pages of a reference-only game: what they say before its rulebook is imported, and that it has no checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.web import create_app

from ..reference_game import GAME, TITLE, add_and_import
from .conftest import IMPORT_COMMAND, api_upload, html, text_of, upload

NO_CHECKS = (
    f"Referee has no checks for '{GAME}' (a reference-only game): it can serve its rulebook but not judge "
    "positions; referee games list shows the games it can check."
)


@pytest.fixture
def added(run_cli):
    """Harbour Watch added, its rulebook not imported yet; a client of the app over the same instance."""
    assert run_cli("games", "add", GAME, "--title", TITLE)[0] == 0
    return create_app({"TESTING": True}).test_client()


@pytest.fixture
def imported(run_cli):
    add_and_import(run_cli)
    return create_app({"TESTING": True}).test_client()


def test_before_import_the_home_page_shows_how_to_import_with_your_own_file_names(added):
    entry = html(added.get("/")).xpath(f"//li[@id='game-{GAME}']")[0]
    assert entry.xpath("string(.//h2/a/@href)") == f"/{GAME}/rules/"
    assert "Reference only" in text_of(entry.xpath(".//p[contains(@class, 'reference-only')]")[0])
    assert entry.xpath("string(.//pre/code)") == f"referee rules import {GAME} FILE..."
    assert "in place of FILE..." in text_of(entry.xpath(".//p[contains(@class, 'not-imported')]")[0])


def test_before_import_the_contents_page_says_there_is_nothing_yet_and_links_no_coverage(added):
    page = html(added.get(f"/{GAME}/rules/"))
    assert page.xpath(IMPORT_COMMAND) == f"referee rules import {GAME} FILE..."
    assert f"{TITLE} is a reference-only game" in text_of(page)
    assert not page.xpath(f"//a[@href='/{GAME}/coverage']")


def test_before_import_a_case_is_a_404_and_search_explains(added):
    assert added.get(f"/{GAME}/rules/4.1").status_code == 404
    page = html(added.get(f"/{GAME}/search", query_string={"q": "lamp"}))
    assert "There is no imported text to search yet." in text_of(page)
    assert added.get(f"/{GAME}/rules/unresolved").status_code == 200


def test_the_coverage_page_of_a_reference_only_game_is_a_404_saying_why(imported):
    response = imported.get(f"/{GAME}/coverage")
    assert response.status_code == 404
    assert NO_CHECKS in text_of(html(response))


def test_a_case_page_says_the_game_has_no_checks(imported):
    page = html(imported.get(f"/{GAME}/rules/4.12"))
    section = page.xpath("//section[@class='enforced-by']")[0]
    assert f"Referee has no checks for {TITLE}: it is a reference-only game." in text_of(section)


def test_the_contents_page_says_reference_only_instead_of_linking_coverage(imported):
    page = html(imported.get(f"/{GAME}/rules/"))
    links = [text_of(item) for item in page.xpath("//ul[@class='page-links']/li")]
    assert "Reference only: Referee has no checks for this game" in links
    assert not page.xpath(f"//a[@href='/{GAME}/coverage']")


def test_an_unknown_game_is_still_a_404(imported):
    assert imported.get("/chess/rules/").status_code == 404


def harbour_save() -> bytes:
    original = (Path(__file__).resolve().parents[2] / "examples" / "tito" / "opening-setup.xml").read_bytes()
    return original.replace(b'game="tito"', f'game="{GAME}"'.encode(), 1)


def test_an_uploaded_save_of_a_reference_only_game_is_a_400_saying_it_has_no_checks(imported):
    response = upload(imported, harbour_save(), name="harbour.xml")
    assert response.status_code == 400
    assert NO_CHECKS in text_of(html(response))
    response = api_upload(imported.application.test_client(), harbour_save(), name="harbour.xml")  # no cookies
    assert response.status_code == 400 and response.get_json()["error"].endswith(NO_CHECKS)
    assert response.get_json()["error"].startswith("harbour.xml, line ")


def test_choosing_a_reference_only_game_in_the_api_is_a_400_saying_it_has_no_checks(imported):
    save = (Path(__file__).resolve().parents[2] / "examples" / "tito" / "opening-setup.xml").read_bytes()
    response = api_upload(imported, save, name="opening.xml", game=GAME)
    assert (response.status_code, response.get_json()) == (400, {"error": NO_CHECKS})

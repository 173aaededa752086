"""The pages over imported rulebooks, imported by the CLI: every page reachable, no dead link.

The plugin games' texts are the user's own (see tests/conftest.py); their
tests skip when the texts are absent.  Harbour Watch, a reference-only game
with a rulebook of our own (tests/reference_game.py), runs the same tests
always.  Nothing here asserts the rulebooks' wording.
"""

from __future__ import annotations

import pytest

from validator.web import create_app

from ..reference_game import import_rulebook, with_reference_game
from .conftest import crawl, html


@pytest.mark.parametrize("game", with_reference_game("tito", "awaw", "tww"))
def test_every_page_of_an_imported_rulebook_answers_and_every_link_works(request, game):
    import_rulebook(request, game)
    client = create_app({"TESTING": True}).test_client()
    statuses = crawl(client, f"/{game}/rules/", limit=3000)
    assert {url: status for url, status in statuses.items() if status != 200} == {}
    prefix = f"/{game}/rules/"
    case_pages = [url for url in statuses if url.startswith(prefix) and url[len(prefix) :][:1].isdigit()]
    assert len(case_pages) > 10


@pytest.mark.parametrize("game", with_reference_game("tito", "awaw", "tww"))
def test_unresolved_references_of_a_real_rulebook_are_never_links(request, game):
    import_rulebook(request, game)
    client = create_app({"TESTING": True}).test_client()
    page = html(client.get(f"/{game}/rules/unresolved"))
    numbers = page.xpath("//table[@class='unresolved-list']/tbody/tr/td[1]/span/text()")
    assert numbers  # each of these rulebooks cites cases outside its imported text
    for number in numbers:
        assert client.get(f"/{game}/rules/{number}").status_code == 404


@pytest.mark.parametrize(
    "game, number, citing",
    [
        # verified by hand against the text
        pytest.param("tito", "6.22", ["6.21", "7.51", "8.42"], marks=pytest.mark.rulebooks),
        pytest.param("tito", "13.91D", ["14.4"], marks=pytest.mark.rulebooks),
        pytest.param("awaw", "11.341A", ["11.353C", "11.42", "44.35A"], marks=pytest.mark.rulebooks),
        pytest.param("awaw", "11.353B", ["44.34A"], marks=pytest.mark.rulebooks),
        ("harbour-watch", "5.21", ["2.3", "6.1"]),
        ("harbour-watch", "4.12B", ["1.3", "4.12C", "4.2"]),  # an item, cited from running text
    ],
)
def test_cited_by_on_real_case_pages(request, game, number, citing):
    import_rulebook(request, game)
    client = create_app({"TESTING": True}).test_client()
    section = html(client.get(f"/{game}/rules/{number}")).xpath("//section[@class='cited-by']")[0]
    assert [href.rsplit("/", 1)[-1] for href in section.xpath(".//a/@href")] == citing

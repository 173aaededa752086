"""The pages over the real rulebooks, imported by the CLI: every page reachable, no dead link.

These need the user's own rulebook texts (see tests/conftest.py); they skip
when the texts are absent.  Nothing here asserts the rulebooks' wording.
"""

from __future__ import annotations

import pytest

from validator.web import create_app

from .conftest import crawl, html

pytestmark = pytest.mark.rulebooks


@pytest.mark.parametrize("game", ["tito", "awaw", "tww"])
def test_every_page_of_an_imported_rulebook_answers_and_every_link_works(import_real, game):
    import_real(game)
    client = create_app({"TESTING": True}).test_client()
    statuses = crawl(client, f"/{game}/rules/", limit=3000)
    assert {url: status for url, status in statuses.items() if status != 200} == {}
    prefix = f"/{game}/rules/"
    case_pages = [url for url in statuses if url.startswith(prefix) and url[len(prefix) :][:1].isdigit()]
    assert len(case_pages) > 10


@pytest.mark.parametrize("game", ["tito", "awaw", "tww"])
def test_unresolved_references_of_a_real_rulebook_are_never_links(import_real, game):
    import_real(game)
    client = create_app({"TESTING": True}).test_client()
    page = html(client.get(f"/{game}/rules/unresolved"))
    for number in page.xpath("//table[@class='unresolved-list']/tbody/tr/td[1]/span/text()"):
        assert client.get(f"/{game}/rules/{number}").status_code == 404


@pytest.mark.parametrize(
    "game, number, citing",
    [
        ("tito", "6.22", ["6.21", "7.51", "8.42"]),  # verified by hand against the text
        ("tito", "13.91D", ["14.4"]),
        ("awaw", "11.341A", ["11.353C", "11.42", "44.35A"]),
        ("awaw", "11.353B", ["44.34A"]),
    ],
)
def test_cited_by_on_real_case_pages(import_real, game, number, citing):
    import_real(game)
    client = create_app({"TESTING": True}).test_client()
    section = html(client.get(f"/{game}/rules/{number}")).xpath("//section[@class='cited-by']")[0]
    assert [href.rsplit("/", 1)[-1] for href in section.xpath(".//a/@href")] == citing

"""One set of page tests for every imported rulebook: Tito's real text and Harbour Watch, a reference-only game.

What each page must show is worked out from the rulebook as stored (its
cases, references and citations), so the same test holds for both games;
the few pinned numbers are verified by hand against the texts.
"""

from __future__ import annotations

import pytest

from validator import instance, store
from validator.rulebook import storage
from validator.web import create_app

from ..reference_game import GAME, import_rulebook, with_reference_game
from .conftest import html

GAMES = with_reference_game("tito")


@pytest.fixture
def imported(request):
    """The game's rulebook imported by the CLI, with a client of the app over the same instance."""
    game = request.param
    import_rulebook(request, game)
    connection = store.connect(instance.database_target(instance.folder()))  # SQLite, or REFEREE_DATABASE_URL
    try:
        book = storage.load(connection, game)
    finally:
        connection.close()
    return game, book, create_app({"TESTING": True}).test_client()


def case_url(game, number) -> str:
    return f"/{game}/rules/{number}"


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_the_contents_list_every_case_of_the_book_once(imported):
    game, book, client = imported
    page = html(client.get(f"/{game}/rules/"))
    linked = page.xpath("//nav[@class='contents']//a/@href")
    assert sorted(linked) == sorted(case_url(game, number) for number in book.cases)


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_each_case_page_links_its_resolved_references_and_only_those(imported):
    game, book, client = imported
    for number, case in book.cases.items():
        if case.kind == "item":
            continue  # an item is shown in place on its case's page, references and all
        page = html(client.get(case_url(game, number)))
        links = page.xpath("//article//a[@class='ref']")
        spans = page.xpath("//article//span[contains(@class, 'unresolved')]")
        shown = [case for case in book.ordered() if case.number == number or number in case.number.ancestors()]
        references = [found for below in shown for block in below.blocks for found in block.references]
        expected_links = sorted(case_url(game, ref.target) for ref in references if ref.resolved)
        assert sorted(link.get("href") for link in links) == expected_links, number
        assert len(spans) == sum(1 for reference in references if not reference.resolved), number


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_cited_by_lists_the_citing_cases_in_case_order(imported):
    game, book, client = imported
    for number in book.cases:
        expected = [case_url(game, citing.number) for citing in book.cited_by(number)]
        section = html(client.get(case_url(game, number))).xpath("//section[@class='cited-by']")[0]
        assert section.xpath(".//a/@href") == expected, number


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_ids_are_unique_on_every_case_page(imported):
    game, book, client = imported
    for number in book.cases:
        ids = html(client.get(case_url(game, number))).xpath("//@id")
        assert len(ids) == len(set(ids)), number


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_a_case_number_searched_goes_to_its_page(imported):
    game, book, client = imported
    for number in book.cases:
        response = client.get(f"/{game}/search", query_string={"q": str(number)})
        assert response.status_code == 302 and response.headers["Location"] == case_url(game, number), number


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_searching_a_case_title_finds_the_case(imported):
    game, book, client = imported
    titled = [case for case in book.ordered() if case.kind == "case" and len(case.title.split()) >= 2]
    assert titled
    for case in titled:
        page = html(client.get(f"/{game}/search", query_string={"q": case.title}))
        assert case_url(game, case.number) in page.xpath("//ol[@class='hits']//a/@href"), case.number


@pytest.mark.parametrize(
    "imported, number, nearest",
    [pytest.param("tito", "6.29", "6.2", marks=pytest.mark.rulebooks), (GAME, "4.19", "4.1"), (GAME, "7.1", None)],
    indirect=["imported"],
)
def test_a_case_the_book_lacks_is_a_404_naming_the_nearest_case_above(imported, number, nearest):
    game, _book, client = imported
    response = client.get(case_url(game, number))
    assert response.status_code == 404
    links = html(response).xpath("//ul[@class='page-links']//a/@href")
    assert links == ([case_url(game, nearest)] if nearest else []) + [f"/{game}/rules/"]


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_the_home_page_marks_which_games_referee_also_checks(imported):
    game, _book, client = imported
    entry = html(client.get("/")).xpath(f"//li[@id='game-{game}']")[0]
    checks = entry.xpath(".//p[contains(@class, 'kind')]/@class")[0]
    assert checks == ("kind reference-only" if game == GAME else "kind checks")
    assert entry.xpath(".//p[contains(@class, 'status')]/@class") == ["status imported"]

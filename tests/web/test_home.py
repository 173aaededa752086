"""The front page: games and their import status."""

from __future__ import annotations

from .conftest import html, text_of


def test_lists_every_game_with_a_link_to_its_rules(client):
    page = html(client.get("/"))
    links = {text_of(link): link.get("href") for link in page.xpath("//li[@class='game']/h2/a")}
    assert links == {
        "Orchard Raid": "/alpha/rules/",
        "Beta Skirmish": "/beta/rules/",
        "Gamma Without Index": "/gamma/rules/",
    }


def test_an_imported_game_shows_when_from_which_files_and_how_many_cases(client, book):
    status = text_of(html(client.get("/")).get_element_by_id("game-alpha"))
    assert f"Imported {book.imported_at} from orchard-rules.txt: 3 sections, 4 cases and 2 lettered items." in status


def test_a_game_not_imported_shows_the_command_with_its_file_names(client):
    entry = html(client.get("/")).get_element_by_id("game-beta")
    assert "Not imported yet." in text_of(entry)
    assert "beta-rules.txt, beta-charts.txt" in text_of(entry)
    command = entry.xpath("string(.//pre/code)")
    assert command == "referee rules import beta beta-rules.txt beta-charts.txt"

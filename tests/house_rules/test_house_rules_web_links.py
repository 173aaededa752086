"""The house rules are found from the pages a user reads, and lead back to them."""

from __future__ import annotations

import lxml.html
import pytest

from validator.web import create_app


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "links.sqlite3"), "INSTANCE": str(tmp_path / "web"),
                      "SECRET_KEY": "test-only"})
    return app.test_client()


def links_of(client, path: str, where: str = "//a") -> list[str]:
    answer = client.get(path)
    assert answer.status_code == 200, path
    return lxml.html.fromstring(answer.data).xpath(f"{where}/@href")


def test_every_page_header_links_to_the_house_rules_of_its_game_or_of_all_games(client):
    assert "/house-rules" in links_of(client, "/", "//header//a")
    assert "/house-rules" in links_of(client, "/check", "//header//a")
    for page in ("/tito/rules/", "/tito/coverage", "/house-rules/tito"):
        assert "/house-rules/tito" in links_of(client, page, "//header//a"), page
    assert "/rulings/?game=tito" in links_of(client, "/tito/rules/", "//header//a")


def test_the_home_page_links_each_checked_game_to_its_house_rules(client):
    home = links_of(client, "/", "//li[@id='game-tito']//a")
    assert "/house-rules/tito" in home and "/tito/coverage" in home


def test_the_house_rules_lead_back_to_the_games_rules(client):
    game_page = links_of(client, "/house-rules/tito", "//main//a")
    assert {"/tito/rules/", "/tito/coverage", "/house-rules"} <= set(game_page)
    index = links_of(client, "/house-rules", "//main//a")
    assert {"/house-rules/tito", "/tito/rules/"} <= set(index)

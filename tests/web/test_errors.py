"""Error pages: clear sentences, the right status, never a 500 for an odd address."""

from __future__ import annotations

import pytest

from .conftest import IMPORT_COMMAND, html, text_of

ERROR_MESSAGE = "string(//p[@class='error-message'])"

ODD_URLS = [
    "/tito/rules/%00",
    "/tito/rules/99.99.99",
    "/tito/rules/" + "1." * 40,
    "/tito/rules/1.1." + "9" * 5000,
    "/tito/rules/6.21%20OR%201=1",
    "/tito/rules/..%2F..%2Fetc%2Fpasswd",
    "/tito/rules/%E2%80%AE",
    "/tito/search?q=%00",
    "/tito/search?q=" + "9" * 199,
    "/tito/search?q=1.1." + "9" * 190,
    "/nogame/search?q=x",
    "/nogame/rules/",
    "/nogame/rules/6.21",
    "/nogame/rules/unresolved",
    "/%00/rules/",
    "/%FF%FE/rules/",
    "/tito/rules/6.21/extra",
    "/static/../setup.cfg",
    "/static/nothing.css",
    "/favicon.ico",
]


def test_an_unknown_game_is_a_404_that_says_so(client):
    response = client.get("/nogame/rules/")
    assert response.status_code == 404
    page = html(response)
    assert page.xpath(ERROR_MESSAGE) == "There is no game called “nogame” in Referee."
    assert page.xpath("//main//a/@href") == ["/"]


def test_an_unknown_game_with_control_characters_is_shown_safely(client):
    response = client.get("/%00%1b/rules/")
    assert response.status_code == 404
    assert "\x00" not in response.get_data(as_text=True)
    assert "There is no game called “\ufffd\ufffd” in Referee." in text_of(html(response))


def test_an_address_that_is_no_case_number_is_a_404_that_explains(client):
    response = client.get("/alpha/rules/six")
    assert response.status_code == 404
    assert "case numbers look like 6, 6.21 or 11.353E" in text_of(html(response))


def test_an_unknown_page_is_a_404_with_a_sentence(client):
    response = client.get("/alpha/rules/2.13/more")
    assert response.status_code == 404
    assert html(response).xpath(ERROR_MESSAGE) == "There is no page at this address."


@pytest.mark.parametrize("url", ODD_URLS)
def test_odd_addresses_never_fail_with_the_invented_games(client, url):
    response = client.get(url.replace("/tito/", "/alpha/"))
    assert response.status_code in (200, 301, 302, 308, 400, 404), response.status_code


@pytest.mark.parametrize("url", ODD_URLS)
def test_odd_addresses_never_fail_with_the_real_games(real_client, url):
    response = real_client.get(url)
    assert response.status_code in (200, 301, 302, 308, 400, 404), response.status_code
    if response.status_code >= 400:
        assert html(response).xpath("//h1")


def test_real_games_show_their_index_and_import_hint_before_import(real_client):
    from validator import games

    for game in games.registry().values():
        response = real_client.get(f"/{game.id}/rules/")
        assert response.status_code == 200
        code = html(response).xpath(IMPORT_COMMAND)
        assert code == " ".join(["referee", "rules", "import", game.id, *game.rulebook_files])
    assert real_client.get("/tito/rules/99.99.99").status_code == 404

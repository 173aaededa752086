"""Search: highlighted results, jumping to a case by number, bad queries."""

from __future__ import annotations

from .conftest import IMPORT_COMMAND, html, text_of


def test_results_link_to_cases_and_highlight_the_words(client):
    page = html(client.get("/alpha/search?q=stream"))
    hits = page.xpath("//ol[@class='hits']/li")
    assert [hit.xpath("string(a/@href)") for hit in hits] == ["/alpha/rules/2.13A"]
    assert hits[0].xpath(".//p[@class='snippet']/mark/text()") == ["stream"]
    assert page.xpath("//input[@name='q']/@value") == ["stream"]


def test_snippets_are_escaped_before_highlighting(client):
    response = client.get("/alpha/search?q=alert")
    body = response.get_data(as_text=True)
    assert "<script>" not in body
    assert html(response).xpath("//p[@class='snippet']/mark/text()") == ["alert"]


def test_a_case_number_that_exists_goes_straight_to_the_case(client):
    for query, target in [("2.13", "2.13"), ("2.13a", "2.13A"), ("2.0", "2"), (" 3 ", "3")]:
        response = client.get("/alpha/search", query_string={"q": query})
        assert response.status_code == 302, query
        assert response.headers["Location"] == f"/alpha/rules/{target}"


def test_a_case_number_that_does_not_exist_is_said_with_the_nearest_case(client):
    page = html(client.get("/alpha/search?q=2.19"))
    notice = page.xpath("//div[@class='notice']")[0]
    assert "Case 2.19 is not in the imported rulebook." in text_of(notice)
    assert notice.xpath(".//a/@href") == ["/alpha/rules/2.1"]


def test_no_match_is_said(client):
    page = html(client.get("/alpha/search?q=zeppelin"))
    assert "No case matches “zeppelin”." in text_of(page)
    assert page.xpath("//ol[@class='hits']") == []


def test_an_empty_query_shows_how_to_search(client):
    page = html(client.get("/alpha/search"))
    assert "Type words to find in the rules" in text_of(page)


def test_a_query_that_is_too_long_is_a_400_with_a_sentence(client):
    response = client.get("/alpha/search", query_string={"q": "token " * 60})
    assert response.status_code == 400
    assert "A search can be at most 200 characters long." in text_of(html(response))


def test_control_characters_in_a_query_are_dropped(client):
    response = client.get("/alpha/search", query_string={"q": "bridge\x00\x07"})
    assert response.status_code == 200
    page = html(response)
    assert page.xpath("//input[@name='q']/@value") == ["bridge"]
    assert "/alpha/rules/2.13B" in page.xpath("//ol[@class='hits']//a/@href")


def test_fts_syntax_is_searched_as_plain_words(client):
    for query in ['"', "token OR", "NEAR(token", "*", "token -bridge", "col:token"]:
        assert client.get("/alpha/search", query_string={"q": query}).status_code == 200, query


def test_before_import_search_explains_and_still_finds_indexed_numbers(client):
    page = html(client.get("/beta/search?q=reserves"))
    assert "There is no imported text to search yet." in text_of(page)
    assert "referee rules import beta" in page.xpath(IMPORT_COMMAND)
    response = client.get("/beta/search?q=1.2")
    assert response.status_code == 302
    assert response.headers["Location"] == "/beta/rules/1.2"
    notice = html(client.get("/beta/search?q=1.9")).xpath("//div[@class='notice']")[0]
    assert "Case 1.9 is not in Referee's case index." in text_of(notice)
    assert notice.xpath(".//a/@href") == ["/beta/rules/1"]

"""The table of contents, with the rulebook imported and before."""

from __future__ import annotations

from .conftest import html, text_of


def _nested_numbers(list_elements) -> list:
    """The numbers of nested lists as [number, [children...]] pairs."""
    found = []
    for item in [item for element in list_elements for item in element.xpath("./li")]:
        number = item.xpath("string(./a/span[@class='number'])")
        found.append([number, _nested_numbers(item.xpath("./ul"))])
    return found


def test_cases_are_nested_by_parent_and_link_to_their_pages(client):
    page = html(client.get("/alpha/rules/"))
    top = page.xpath("//nav[@class='contents']/ul")
    assert _nested_numbers(top) == [
        ["1", [["1.1", []]]],
        ["2", [["2.1", [["2.13", [["2.13A", []], ["2.13B", []]]]]], ["2.2", []]]],
        ["3", []],
    ]
    hrefs = page.xpath("//nav[@class='contents']//a/@href")
    assert "/alpha/rules/2.13A" in hrefs and "/alpha/rules/1" in hrefs


def test_book_titles_win_and_index_titles_are_marked_as_ours(client):
    page = html(client.get("/alpha/rules/"))
    contents = page.xpath("//nav[@class='contents']")[0]
    ours = [text_of(span) for span in contents.xpath(".//span[contains(@class, 'ours')]")]
    assert ours == ["Moving tokens"]  # 2.1 has no title in the book
    titles = [text_of(span) for span in contents.xpath(".//span[@class='title']")]
    assert "Introduction" in titles and "Our introduction" not in titles


def test_shows_front_matter_and_links_to_unresolved_and_search(client):
    page = html(client.get("/alpha/rules/"))
    front = page.get_element_by_id("front-matter")
    assert "These invented rules only test the pages" in text_of(front)
    assert front.xpath(".//a[@class='ref']/@href") == ["/alpha/rules/1"]
    assert front.xpath(".//ul[@class='bullets']/li/text()") == ["Keep the pieces sorted."]
    links = page.xpath("//ul[@class='page-links']//a/@href")
    assert links == ["/alpha/rules/unresolved", "/alpha/search", "/alpha/coverage", "#front-matter"]


def test_summary_counts_the_imported_text(client):
    meta = text_of(html(client.get("/alpha/rules/")).xpath("//p[@class='meta']")[0])
    assert "3 sections, 4 cases and 2 lettered items" in meta
    assert "8 cross-references of which 2 point outside the imported text" in meta


def test_before_import_the_index_and_the_import_command_are_shown(client):
    response = client.get("/beta/rules/")
    assert response.status_code == 200
    page = html(response)
    assert page.xpath("string(//div[contains(@class, 'import-hint')]//code)") == (
        "referee rules import beta beta-rules.txt beta-charts.txt"
    )
    top = page.xpath("//nav[@class='contents']/ul")
    assert _nested_numbers(top) == [["1", [["1.1", []], ["1.2", []]]], ["2", []]]
    assert [text_of(span) for span in top[0].xpath(".//span[contains(@class, 'ours')]")] == [
        "Setting up",
        "Placing tokens",
        "Reserves",
        "Scoring",
    ]


def test_a_missing_case_index_is_said_plainly(client):
    response = client.get("/gamma/rules/")
    assert response.status_code == 200
    assert "Referee has no case index for this game yet." in text_of(html(response))


def test_the_game_address_leads_to_its_contents(client):
    response = client.get("/alpha/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/alpha/rules/"

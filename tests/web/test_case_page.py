"""Case pages: text with links, subtree, items in place, neighbours, citations, checks."""

from __future__ import annotations

import pytest

from validator import store
from validator.cases import CaseNumber
from validator.rulebook import storage

from .conftest import IMPORT_COMMAND, crawl, html, text_of


def test_every_link_reachable_from_the_site_leads_to_a_page(client, book):
    statuses = crawl(client, "/")
    broken = {url: status for url, status in statuses.items() if status != 200}
    assert broken == {}
    for number in book.cases:
        assert f"/alpha/rules/{number}" in statuses


@pytest.mark.parametrize("number", ["1", "1.1", "2", "2.1", "2.13", "2.13A", "2.13B", "2.2", "3"])
def test_every_link_on_each_case_page_returns_200(client, number):
    page = html(client.get(f"/alpha/rules/{number}"))
    hrefs = {href.split("#")[0] for href in page.xpath("//a/@href") if not href.startswith("#")}
    assert hrefs
    for href in hrefs:
        assert client.get(href).status_code == 200, href


def test_ids_are_unique_on_every_page(client, book):
    for number in ["2", *map(str, book.cases)]:
        ids = html(client.get(f"/alpha/rules/{number}")).xpath("//@id")
        assert len(ids) == len(set(ids)), number


def test_resolved_references_link_to_the_target_page(client):
    page = html(client.get("/alpha/rules/2.1"))
    links = page.xpath("//article/p//a[@class='ref']")
    assert [(link.text, link.get("href")) for link in links] == [("2.13", "/alpha/rules/2.13")]


def test_references_to_lettered_items_link_to_the_item_page(client):
    links = html(client.get("/alpha/rules/2.2")).xpath("//article/p//a[@class='ref']/@href")
    assert links == ["/alpha/rules/2.13B"]


def test_unresolved_references_are_spans_not_links(client):
    page = html(client.get("/alpha/rules/1.1"))
    spans = page.xpath("//article//span[@class='ref unresolved']")
    assert [span.text for span in spans] == ["9.9"]
    assert spans[0].get("title") == "Not in the imported rulebook"
    assert page.xpath("//a[normalize-space(.)='9.9']") == []


def test_rulebook_text_is_escaped(client):
    response = client.get("/alpha/rules/2.2")
    body = response.get_data(as_text=True)
    assert "<script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; so on" in body
    assert html(response).xpath("//script") == []


def test_a_section_page_shows_its_whole_subtree_in_order(client):
    page = html(client.get("/alpha/rules/2"))
    article = page.xpath("//article")[0]
    shown = article.xpath(".//section/@id")
    assert shown == ["c2-1", "c2-13", "c2-13A", "c2-13B", "c2-2"]
    procedure = text_of(article.xpath(".//p[@class='procedure']")[0])
    assert procedure.startswith("Procedure: move each token")
    assert "Procedure: Procedure" not in text_of(article)


def test_lettered_items_appear_in_place_with_a_permalink(client):
    article = html(client.get("/alpha/rules/2.13")).xpath("//article")[0]
    order = [
        " ".join(node.text_content().split())
        for node in article.xpath("./p | ./section")
    ]
    assert order[0] == "Two exceptions apply:"
    assert order[1].startswith("2.13A Streams")
    assert order[2].startswith("2.13B Bridges")
    assert order[3] == "Both exceptions end at the close of the turn."
    item = article.xpath(".//section[@id='c2-13A']")[0]
    assert item.xpath(".//a[@class='permalink']/@href") == ["/alpha/rules/2.13A"]


def test_general_rule_gets_its_label(client):
    rule = html(client.get("/alpha/rules/1")).xpath("//p[@class='general-rule']")[0]
    assert text_of(rule) == (
        "General Rule: Players take turns moving tokens across the orchard; see 2.1."
    )


def test_bullets_are_list_items_indented_by_depth(client):
    items = html(client.get("/alpha/rules/2")).xpath("//article/ul[@class='bullets']/li")
    assert [(item.get("class"), item.text) for item in items] == [
        ("depth-0", "Tokens move one at a time."),
        ("depth-1", "A moving token may not pass through another."),
    ]


def test_tables_are_real_tables_with_caption_groups_header_and_rows(client):
    page = html(client.get("/alpha/rules/2"))
    table = page.xpath("//div[@class='table-wrap']/table[@class='rulebook']")[0]
    assert table.xpath("string(caption)") == "Orchard Terrain Costs"
    assert table.xpath("thead/tr[@class='groups']/th/text()") == ["Terrain"]
    assert table.xpath("thead/tr[not(@class)]/th/text()") == ["Kind", "Cost"]
    rows = [row.xpath("td/text()") for row in table.xpath("tbody/tr")]
    assert rows == [["Grass", "1"], ["Hedge", "2"]]
    assert page.xpath("//article/h2[@class='block-heading']/text()") == ["Movement costs"]


def test_breadcrumb_and_neighbours(client):
    page = html(client.get("/alpha/rules/2.13A"))
    crumbs = page.xpath("//nav[@class='breadcrumb']//a/@href")
    assert crumbs == [
        "/",
        "/alpha/rules/",
        "/alpha/rules/2",
        "/alpha/rules/2.1",
        "/alpha/rules/2.13",
    ]
    assert page.xpath("//nav[@class='neighbours']/a[@rel='prev']/@href") == ["/alpha/rules/2.13"]
    assert page.xpath("//nav[@class='neighbours']/a[@rel='next']/@href") == ["/alpha/rules/2.13B"]


def test_first_and_last_cases_have_one_neighbour(client):
    assert html(client.get("/alpha/rules/1")).xpath("//nav[@class='neighbours']/a/@rel") == ["next"]
    assert html(client.get("/alpha/rules/3")).xpath("//nav[@class='neighbours']/a/@rel") == ["prev"]


@pytest.mark.parametrize(
    ("number", "citing"),
    [
        ("1", ["/alpha/rules/3"]),
        ("2.13", ["/alpha/rules/2.1"]),
        ("2.13A", ["/alpha/rules/2.13B"]),
        ("2.13B", ["/alpha/rules/2.2"]),
        ("1.1", []),
    ],
)
def test_cited_by_lists_the_cases_that_refer_here(client, number, citing):
    section = html(client.get(f"/alpha/rules/{number}")).xpath("//section[@class='cited-by']")[0]
    assert section.xpath(".//a/@href") == citing
    if not citing:
        assert "No other case refers to this one." in text_of(section)


def test_links_out_cover_the_subtree_resolved_as_links_unresolved_plain(client):
    section = html(client.get("/alpha/rules/2")).xpath("//section[@class='links-out']")[0]
    assert section.xpath(".//a/@href") == [
        "/alpha/rules/2.13",
        "/alpha/rules/2.13A",
        "/alpha/rules/2.13B",
        "/alpha/rules/2.2",
    ]
    assert section.xpath(".//span[@class='ref unresolved']/text()") == ["3.4"]
    assert "3.4 is not in the imported rulebook." in text_of(section)


def test_checks_that_enforce_the_case_are_listed(client):
    section = html(client.get("/alpha/rules/2.2")).xpath("//section[@class='enforced-by']")[0]
    assert section.xpath(".//code/text()") == ["alpha:2.2"]
    assert "overstacked_space" in text_of(section)
    assert "No space may hold more than two tokens." in text_of(section)


def test_checks_of_cases_shown_below_are_listed_under_their_case(client):
    section = html(client.get("/alpha/rules/2.13")).xpath("//section[@class='enforced-by']")[0]
    assert "No checks enforce this case yet." in text_of(section)
    assert section.xpath(".//h3/a/@href") == ["/alpha/rules/2.13A"]
    assert section.xpath(".//code/text()") == ["alpha:2.13A"]


def test_a_case_without_checks_says_so(client):
    section = html(client.get("/alpha/rules/3")).xpath("//section[@class='enforced-by']")[0]
    assert text_of(section) == "Checks No checks enforce this case yet."


def test_import_notes_are_shown_as_a_notice(client):
    page = html(client.get("/alpha/rules/2.2"))
    notice = page.xpath("//article/div[contains(@class, 'notice')]")[0]
    assert "The printed number 2.3 was corrected to 2.2." in text_of(notice)


def test_a_title_from_our_index_is_marked_on_the_case_page(client):
    heading = html(client.get("/alpha/rules/2.1")).xpath("//h1")[0]
    assert heading.xpath("span[contains(@class, 'ours')]/text()") == ["Moving tokens"]


@pytest.mark.parametrize(("asked", "canonical"), [("2.0", "2"), ("2.", "2"), ("2.13a", "2.13A")])
def test_other_spellings_redirect_to_the_canonical_address(client, asked, canonical):
    response = client.get(f"/alpha/rules/{asked}")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/alpha/rules/{canonical}"


def test_an_unknown_case_is_a_404_that_links_the_contents_and_nearest_case(client):
    response = client.get("/alpha/rules/2.19")
    assert response.status_code == 404
    page = html(response)
    assert "Case 2.19 is not in the imported rulebook of Orchard Raid." in text_of(page)
    links = page.xpath("//ul[@class='page-links']//a/@href")
    assert links == ["/alpha/rules/2.1", "/alpha/rules/"]


def test_before_import_an_indexed_case_shows_its_title_and_the_import_hint(client):
    response = client.get("/beta/rules/1.2")
    assert response.status_code == 200
    page = html(response)
    assert page.xpath("//h1/span[contains(@class, 'ours')]/text()") == ["Reserves"]
    assert "referee rules import beta" in page.xpath(IMPORT_COMMAND)
    assert page.xpath("//section[@class='enforced-by']//code/text()") == ["beta:1.2"]
    assert page.xpath("//nav[@class='breadcrumb']//a/@href")[-1] == "/beta/rules/1"
    assert page.xpath("//nav[@class='neighbours']/a/@href") == ["/beta/rules/1.1", "/beta/rules/2"]


def test_before_import_a_section_lists_the_indexed_cases_under_it(client):
    page = html(client.get("/beta/rules/1"))
    assert page.xpath("//article//ul/li/a/@href") == ["/beta/rules/1.1", "/beta/rules/1.2"]


def test_before_import_a_case_outside_the_index_is_a_404(client):
    response = client.get("/beta/rules/1.7")
    assert response.status_code == 404
    page = html(response)
    assert "Case 1.7 is not in Referee's case index for Beta Skirmish" in text_of(page)
    assert page.xpath("//ul[@class='page-links']//a/@href") == ["/beta/rules/1", "/beta/rules/"]


def test_the_loaded_rulebook_is_reused_until_a_new_import(client, book, database_path, monkeypatch):
    loads = []
    real_load = storage.load

    def counting_load(connection, game):
        loads.append(game)
        return real_load(connection, game)

    monkeypatch.setattr(storage, "load", counting_load)
    assert text_of(html(client.get("/alpha/rules/2.2")).xpath("//h1")[0]) == "2.2 Stacking"
    client.get("/alpha/rules/2.13")
    assert loads == ["alpha"]

    book.cases[CaseNumber.parse("2.2")].title = "Crowding"
    book.imported_at = "2099-01-01T00:00:00+00:00"
    connection = store.connect(database_path)
    try:
        storage.save(connection, book)
    finally:
        connection.close()
    assert text_of(html(client.get("/alpha/rules/2.2")).xpath("//h1")[0]) == "2.2 Crowding"
    assert loads == ["alpha", "alpha"]


def test_a_documented_decision_is_shown_on_its_case_page(client, monkeypatch):
    import dataclasses

    from validator import games

    game = games.registry()["alpha"]  # a game's decisions are fixed: the test puts in a game that has one
    decided = dataclasses.replace(game, decisions={"1.1": "Referee reads this case narrowly."})
    monkeypatch.setitem(games.registry(), "alpha", decided)
    page = html(client.get("/alpha/rules/1.1"))
    assert page.xpath("string(//section[@class='decision']/p)") == "Referee reads this case narrowly."
    assert not html(client.get("/alpha/rules/1")).xpath("//section[@class='decision']")

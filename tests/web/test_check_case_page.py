"""A case page opened from a report: the case marked, the report's violations of it listed."""

from __future__ import annotations

import pytest

from .conftest import STREAM_CROSSER, html, orchard_save, report_id_of, text_of, upload

BLOCK = "//section[contains(@class, 'report-block')]"


@pytest.fixture
def report_id(check_client):
    return report_id_of(upload(check_client, orchard_save(extra_pieces=STREAM_CROSSER), name="club.xml"))


def test_the_broken_case_is_highlighted_and_its_violations_listed(check_client, report_id):
    page = html(check_client.get(f"/alpha/rules/2.2?report={report_id}"))
    block = page.xpath(BLOCK)[0]
    assert block.get("class") == "report-block broken"
    assert text_of(block.xpath("h2")[0]) == "This report breaks this case"
    assert block.xpath(".//a/@href") == [f"/reports/{report_id}"]
    lines = block.xpath(".//li")
    assert len(lines) == 1
    assert "3 tokens (Token t1, Token t2, Token t3); the limit is 2" in text_of(lines[0])
    assert lines[0].xpath("string(span[@class='where'])") == "North Row / Gate"
    assert lines[0].xpath("string(span[@class='marker'])") == "1"
    assert "broken" in page.xpath("//article/@class")[0].split()


def test_a_case_lists_the_violations_of_its_lettered_items(check_client, report_id):
    page = html(check_client.get(f"/alpha/rules/2.13?report={report_id}"))
    block = page.xpath(BLOCK)[0]
    assert "or its lettered items" in text_of(block)
    assert "moved on past the stream" in text_of(block.xpath(".//li")[0])
    assert block.xpath(".//li/span[@class='where']/text()") == ["South Row / Stream"]
    # the item drawn in place on the parent's page is marked too
    assert "broken" in page.xpath("//section[@id='c2-13A']/@class")[0].split()
    assert "broken" not in page.xpath("//section[@id='c2-13B']/@class")[0].split()


def test_the_item_page_lists_its_own_violation(check_client, report_id):
    block = html(check_client.get(f"/alpha/rules/2.13A?report={report_id}")).xpath(BLOCK)[0]
    assert len(block.xpath(".//li")) == 1


def test_a_case_the_report_does_not_break_says_so(check_client, report_id):
    page = html(check_client.get(f"/alpha/rules/3?report={report_id}"))
    block = page.xpath(BLOCK)[0]
    assert block.get("class") == "report-block"
    assert text_of(block.xpath("h2")[0]) == "This report does not break this case"
    assert "broken" not in page.xpath("//article/@class")[0].split()


def test_without_a_report_the_case_page_is_unchanged(check_client, report_id):
    with_report = html(check_client.get("/alpha/rules/2.2"))
    assert with_report.xpath(BLOCK) == []
    assert "broken" not in with_report.xpath("//article/@class")[0]


@pytest.mark.parametrize("asked", ["AAAAAAAAAAAAAAAAAAAAAA", "", "%00", "x" * 3000])
def test_an_unknown_report_id_is_a_404_with_a_sentence(check_client, asked):
    response = check_client.get(f"/alpha/rules/2.2?report={asked}")
    assert response.status_code == 404
    assert html(response).xpath("string(//p[@class='error-message'])").startswith("There is no report with the id")


def test_a_report_of_another_game_is_a_404(check_client, report_id):
    response = check_client.get(f"/beta/rules/1.2?report={report_id}")
    assert response.status_code == 404
    assert "is about a position of alpha, not of Beta Skirmish" in text_of(html(response))


def test_another_spelling_keeps_the_report_through_the_redirect(check_client, report_id):
    response = check_client.get(f"/alpha/rules/2.13a?report={report_id}")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/alpha/rules/2.13A?report={report_id}"


def test_a_case_missing_from_the_book_still_lists_the_report(check_client, report_id):
    response = check_client.get(f"/alpha/rules/2.19?report={report_id}")
    assert response.status_code == 404
    block = html(response).xpath(BLOCK)[0]
    assert text_of(block.xpath("h2")[0]) == "This report does not break this case"


def test_every_link_on_the_report_page_leads_to_a_page(check_client, report_id):
    page = html(check_client.get(f"/reports/{report_id}"))
    for href in set(page.xpath("//a/@href")):
        if href.startswith("#"):  # a place on this page, such as the skip link's target
            assert page.xpath(f"//*[@id='{href[1:]}']"), href
            continue
        assert check_client.get(href).status_code == 200, href


def test_ids_stay_unique_on_a_case_page_with_a_report(check_client, report_id):
    for number in ("2", "2.13", "2.2"):
        ids = html(check_client.get(f"/alpha/rules/{number}?report={report_id}")).xpath("//@id")
        assert len(ids) == len(set(ids)), number

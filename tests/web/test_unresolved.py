"""The page of unresolved references."""

from __future__ import annotations

from .conftest import html, text_of


def test_lists_each_unresolved_number_with_its_citers_and_nearest_case(client):
    page = html(client.get("/alpha/rules/unresolved"))
    rows = page.xpath("//table[@class='unresolved-list']/tbody/tr")
    found = [
        (
            row.xpath("string(td[1])"),
            row.xpath("td[2]/a/@href"),
            row.xpath("td[3]/a/@href"),
            text_of(row.xpath("td[3]")[0]),
        )
        for row in rows
    ]
    assert found == [
        ("3.4", ["/alpha/rules/2.13A"], ["/alpha/rules/3"], "3"),
        ("9.9", ["/alpha/rules/1.1"], [], "None: no case of that section was imported."),
    ]
    assert page.xpath("//td[1]//a") == []


def test_before_import_says_there_is_nothing_to_list(client):
    response = client.get("/beta/rules/unresolved")
    assert response.status_code == 200
    page = html(response)
    assert "There are no references to list until the rulebook is imported." in text_of(page)
    assert page.xpath("//div[contains(@class, 'import-hint')]")

"""Permanent addresses follow the site's own name ([web] base_url, trusted_hosts), never a request's Host header."""

from __future__ import annotations

import lxml.html
import pytest

from validator import settings
from validator.web import addresses, create_app

from .conftest import api_upload, orchard_save

FORGED = "attacker.example.net"


def app_with(tmp_path, database_path, web: str = ""):
    folder = tmp_path / "site"
    folder.mkdir()
    if web:
        (folder / settings.FILE_NAME).write_text(f"[web]\n{web}\n", encoding="utf-8")
    return create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(folder),
                       "SECRET_KEY": "test-only"})


def shown_address(client, report_id: str, host: str) -> str:
    page = lxml.html.fromstring(client.get(f"/reports/{report_id}", headers={"Host": host}).data)
    return page.xpath(f"string(//a[@href='/reports/{report_id}'])")


def test_base_url_makes_every_permanent_address_whatever_the_host(checking_games, book, database_path, tmp_path):
    app = app_with(tmp_path, database_path, 'base_url = "https://referee.example.org/club/"')
    client = app.test_client()
    report = api_upload(client, orchard_save(), headers={"Host": "localhost"}).get_json()
    assert report["report_url"] == f"https://referee.example.org/club/reports/{report['id']}"
    assert report["violations"][0]["url"] == "https://referee.example.org/club/alpha/rules/2.2"
    assert shown_address(client, report["id"], "referee.example.org") == report["report_url"]
    stored = client.get(f"/reports/{report['id']}.json", headers={"Host": "referee.example.org"}).get_json()
    assert stored["report_url"] == report["report_url"]


def test_without_settings_only_local_names_are_answered(checking_games, book, database_path, tmp_path):
    client = app_with(tmp_path, database_path).test_client()
    assert client.get("/", headers={"Host": "127.0.0.1:5000"}).status_code == 200
    page = client.get("/", headers={"Host": FORGED})
    assert page.status_code == 400 and page.mimetype == "text/plain"
    assert page.get_data(as_text=True).strip() == addresses.UNTRUSTED_HOST
    assert FORGED not in page.get_data(as_text=True)
    api = api_upload(client, orchard_save(), headers={"Host": FORGED})
    assert api.status_code == 400 and api.get_json() == {"error": addresses.UNTRUSTED_HOST}
    assert not list((tmp_path / "site" / "uploads").iterdir())  # refused before any work


def test_a_forged_host_never_gets_an_address_built_from_it(checking_games, book, database_path, tmp_path):
    client = app_with(tmp_path, database_path, 'trusted_hosts = ["referee.example.org"]').test_client()
    made = api_upload(client, orchard_save(), headers={"Host": "referee.example.org"}).get_json()
    assert made["report_url"] == f"http://referee.example.org/reports/{made['id']}"
    for path in (f"/reports/{made['id']}", f"/reports/{made['id']}.json", "/", "/check"):
        answer = client.get(path, headers={"Host": FORGED})
        assert answer.status_code == 400 and FORGED.encode() not in answer.data, path


def test_trusted_hosts_admit_subdomains_and_replace_the_local_names(checking_games, book, database_path, tmp_path):
    client = app_with(tmp_path, database_path, 'trusted_hosts = [".example.org"]').test_client()
    made = api_upload(client, orchard_save(), headers={"Host": "east.example.org"}).get_json()
    assert made["report_url"] == f"http://east.example.org/reports/{made['id']}"
    assert shown_address(client, made["id"], "west.example.org") == f"http://west.example.org/reports/{made['id']}"
    assert client.get("/", headers={"Host": "localhost"}).status_code == 400


@pytest.mark.parametrize("value", ['"referee.example.org"', '"ftp://referee.example.org"',
                                   '"https://referee.example.org/?a=1"', '"https://"'])
def test_a_base_url_that_is_not_a_site_address_is_refused(database_path, tmp_path, value):
    with pytest.raises(settings.SettingsError) as raised:
        app_with(tmp_path, database_path, f"base_url = {value}")
    assert "[web] base_url must be the site's address" in str(raised.value)
    assert str(raised.value).startswith(str(tmp_path / "site" / settings.FILE_NAME))

"""The web app reads uploads under the site's smaller limits, and says a refusal is the site's limit.

The wide Tito save (one division whose marker lists 10,005 keys) is admitted
by the command line's defaults (tests/hostile/test_limits_cli.py) and is past
the web's list_items limit of 10,000.
"""

from __future__ import annotations

import io

import pytest

from validator import settings, store
from validator.limits import MIB, WEB_LIMITS
from validator.web import create_app

from tests.hostile.limit_saves import ROOT, wide_tito_save
from tests.web.conftest import form_token, html

LISTED = 10_005


@pytest.fixture(autouse=True)
def no_chosen_settings_file(monkeypatch):
    monkeypatch.delenv(settings.ENVIRONMENT_VARIABLE, raising=False)


@pytest.fixture
def instance(tmp_path):
    folder = tmp_path / "web-instance"
    folder.mkdir()
    return folder


@pytest.fixture
def wide(tmp_path):
    return wide_tito_save(tmp_path / "files", LISTED - 4)


def client_of(instance):
    return create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"}).test_client()


def post(client, save, module, *, api: bool = True):
    data = {"game": "tito", "save": (io.BytesIO(save.read_bytes()), "wide.vsav"),
            "module": (io.BytesIO(module.read_bytes()), "tito-sample.vmod")}
    if api:
        return client.post("/api/check", data=data, content_type="multipart/form-data")
    data["csrf_token"] = form_token(client)
    return client.post("/check", data=data, content_type="multipart/form-data")


def reports_kept(instance) -> int:
    connection = store.connect(instance / "referee.sqlite3")
    try:
        return connection.execute("SELECT COUNT(*) FROM report").fetchone()[0]
    finally:
        connection.close()


def test_a_save_the_command_line_admits_is_refused_by_the_sites_limit_with_a_sentence(instance, wide):
    module, save = wide
    response = post(client_of(instance), save, module)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith(f"wide.vsav: piece de-704 holds a list of {LISTED:,} items, more than the list_items "
                            f"limit of {WEB_LIMITS.list_items:,}; that limit is this site's")
    assert "--limit" not in error and "referee.toml" not in error and str(instance) not in error
    assert reports_kept(instance) == 0


def test_the_form_shows_the_same_sentence(instance, wide):
    module, save = wide
    client = client_of(instance)
    client.get("/check")
    response = post(client, save, module, api=False)
    assert response.status_code == 400
    shown = html(response).xpath("string(//p[@class='error-message'])")
    assert "more than the list_items limit of 10,000; that limit is this site's" in shown


def test_the_web_limits_of_the_settings_file_raise_the_sites_limit(instance, wide):
    (instance / "referee.toml").write_text("[web.limits]\nlist_items = \"20k\"\n", encoding="utf-8")
    module, save = wide
    response = post(client_of(instance), save, module)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["legal"] is True
    assert reports_kept(instance) == 1


def test_the_command_lines_limits_do_not_raise_the_sites(instance, wide):
    (instance / "referee.toml").write_text("[limits]\nlist_items = 1_000_000\n", encoding="utf-8")
    module, save = wide
    assert post(client_of(instance), save, module).status_code == 400


def test_a_lowered_web_limit_reaches_the_module_reader(instance, wide):
    (instance / "referee.toml").write_text("[web.limits]\nxml_bytes = 2048\n", encoding="utf-8")
    module, save = wide
    response = post(client_of(instance), save, module)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("tito-sample.vmod, entry 'buildFile.xml': the entry declares ")
    assert "more than the xml_bytes limit of 2,048; that limit is this site's" in error


def test_a_save_of_our_format_past_the_sites_xml_bytes_is_refused_before_it_is_parsed(instance, tmp_path):
    example = (ROOT / "examples" / "tito" / "overstacked.xml").read_bytes()
    padded = example + b"<!-- " + b"x" * (5 * MIB) + b" -->\n"  # the command line checks it (test_limits_cli.py)
    client = client_of(instance)
    response = client.post("/api/check", data={"save": (io.BytesIO(padded), "padded.xml")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(
        f"padded.xml: the file holds {len(padded):,} bytes, more than the xml_bytes limit of 4,194,304; that limit "
        "is this site's")
    response = client.post("/api/check", data={"save": (io.BytesIO(example), "example.xml")},
                           content_type="multipart/form-data")
    assert response.status_code == 200 and response.get_json()["legal"] is False


def test_a_settings_file_broken_while_the_site_runs_is_a_503_that_shows_no_server_path(instance, wide):
    client = client_of(instance)
    (instance / "referee.toml").write_text('[web.limits]\npieces = "abc"\n', encoding="utf-8")
    module, save = wide
    response = post(client, save, module)
    assert response.status_code == 503
    error = response.get_json()["error"]
    assert error.startswith("This site cannot check files just now, as its settings need repair")
    assert str(instance) not in error and "referee.toml" not in error
    assert reports_kept(instance) == 0

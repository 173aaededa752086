"""The app factory: configuration, security headers, one connection per request."""

from __future__ import annotations

import sqlite3

import pytest
from flask import request

from validator import store
from validator.errors import InputError
from validator.rulebook import storage
from validator.web import CONTENT_SECURITY_POLICY, create_app, database

from .conftest import html, text_of


def test_factory_defaults_to_the_instance_folder(tmp_path, monkeypatch):
    folder = tmp_path / "chosen-instance"
    monkeypatch.setenv("REFEREE_INSTANCE", str(folder))
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    app = create_app()
    assert app.instance_path == str(folder.resolve())
    assert app.config["DATABASE"] == str(folder.resolve() / "referee.sqlite3")
    assert app.config["SECRET_KEY"] == (folder / "secret_key").read_text().strip()
    assert app.config["MAX_CONTENT_LENGTH"] > 0


def test_secret_key_comes_from_the_environment_first(tmp_path, monkeypatch):
    key = "from-the-environment-" + "k" * 16
    monkeypatch.setenv("REFEREE_SECRET_KEY", key)
    app = create_app({"INSTANCE": str(tmp_path / "instance")})
    assert app.config["SECRET_KEY"] == key
    assert not (tmp_path / "instance" / "secret_key").exists()


@pytest.mark.parametrize("weak", ["abc", "x" * 31, "with spaces " * 4])
def test_a_weak_secret_key_in_the_environment_is_refused_with_how_to_make_one(tmp_path, monkeypatch, weak):
    monkeypatch.setenv("REFEREE_SECRET_KEY", weak)
    with pytest.raises(InputError) as refused:
        create_app({"INSTANCE": str(tmp_path / "instance")})
    assert "REFEREE_SECRET_KEY: the secret key must be at least 32 printable characters" in str(refused.value)
    assert "secrets.token_hex(32)" in str(refused.value)


def test_a_test_database_keeps_the_user_instance_untouched(tmp_path, monkeypatch):
    user_folder = tmp_path / "user"
    monkeypatch.setenv("REFEREE_INSTANCE", str(user_folder))
    app = create_app({"DATABASE": str(tmp_path / "test.sqlite3"), "SECRET_KEY": "test-only"})
    assert app.instance_path == str(tmp_path.resolve())
    assert not user_folder.exists()


@pytest.mark.parametrize(
    "url",
    ["/", "/alpha/rules/", "/alpha/rules/2.13", "/alpha/search?q=token", "/static/referee.css", "/x/"],
)
def test_every_response_carries_the_security_headers(client, url):
    response = client.get(url)
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_style_or_script(client):
    for url in ["/", "/alpha/rules/", "/alpha/rules/2", "/alpha/rules/2.13", "/beta/rules/"]:
        page = html(client.get(url))
        assert page.xpath("//script | //style | //*[@style] | //*[starts-with(@href, 'javascript:')]") == []
        viewport = page.xpath("//meta[@name='viewport']/@content")
        assert viewport == ["width=device-width, initial-scale=1"]


def test_one_connection_per_request_closed_at_teardown(app, monkeypatch):
    opened: list[sqlite3.Connection] = []
    real_connect = store.connect

    def recording_connect(path):
        opened.append(real_connect(path))
        return opened[-1]

    monkeypatch.setattr(store, "connect", recording_connect)
    with app.test_request_context("/"):
        assert database.connection() is database.connection()
    assert len(opened) == 1
    app.test_client().get("/alpha/rules/2.13")
    assert len(opened) == 2
    for connection in opened:
        with pytest.raises((sqlite3.ProgrammingError, store.UnusableDatabase)):  # closed, on SQLite or PostgreSQL
            connection.execute("SELECT 1")


def test_a_request_over_the_size_limit_gets_413_with_a_sentence(test_games, database_path):
    app = create_app(
        {"DATABASE": str(database_path), "SECRET_KEY": "test-only", "MAX_CONTENT_LENGTH": 1024}
    )
    # The rules pages take no uploads; a probe route reads a form the way an upload page will.
    app.add_url_rule("/probe", "probe", lambda: str(len(request.form)), methods=["POST"])
    response = app.test_client().post("/probe", data={"file": "x" * 4096})
    assert response.status_code == 413
    assert "larger than" in text_of(html(response).xpath("//p[@class='error-message']")[0])


def test_an_unexpected_failure_gives_a_plain_500_page(test_games, database_path, monkeypatch):
    def broken_load(connection, game):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(storage, "load", broken_load)
    monkeypatch.setattr(storage, "import_stamp", lambda connection, game: "stamp")
    app = create_app({"DATABASE": str(database_path), "SECRET_KEY": "test-only"})
    response = app.test_client().get("/alpha/rules/")
    assert response.status_code == 500
    body = response.get_data(as_text=True)
    assert "Something went wrong on our side" in body
    assert "Traceback" not in body and "OperationalError" not in body
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


def test_method_not_allowed_keeps_the_allow_header(client):
    response = client.post("/alpha/rules/")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    assert "cannot be used that way" in response.get_data(as_text=True)

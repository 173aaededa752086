"""Behind a reverse proxy ([web] proxy_count) the client's address and scheme come from its headers, and only then."""

from __future__ import annotations

from validator import settings
from validator.arbitration import counters
from validator.web import create_app

from tests.arbitration.test_web import checked_report, token_of

PROXY = {"REMOTE_ADDR": "127.0.0.1"}  # every request reaches the app from the proxy on the same host


def app_with(tmp_path, database_path, web: str):
    folder = tmp_path / "site"
    folder.mkdir(parents=True)
    (folder / settings.FILE_NAME).write_text(f"[web]\n{web}\n", encoding="utf-8")
    return create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(folder),
                       "SECRET_KEY": "test-only", "REFEREE_COMMENT_LIMIT": counters.Limit(count=1, seconds=3600)})


def comment_statuses(client, clients: list[str]) -> list[int]:
    """Open a case file, then post one comment as each of ``clients`` (as X-Forwarded-For names them)."""
    report_id = checked_report(client)
    token = token_of(client, f"/reports/{report_id}")
    case_file_url = client.post(f"/reports/{report_id}/case-file", data={"csrf_token": token},
                                environ_base=PROXY, headers={"X-Forwarded-For": "198.51.100.1"}).headers["Location"]
    return [client.post(case_file_url + "/comments", environ_base=PROXY,
                        headers={"X-Forwarded-For": address, "X-Forwarded-Proto": "https"},
                        data={"csrf_token": token, "author": "Red", "body": f"from {address}"}).status_code
            for address in clients]


def test_behind_one_proxy_two_clients_are_limited_apart(checking_games, book, database_path, tmp_path):
    client = app_with(tmp_path, database_path, "proxy_count = 1").test_client()
    assert comment_statuses(client, ["198.51.100.7", "198.51.100.8", "198.51.100.7"]) == [303, 303, 429]


def test_a_client_cannot_pick_its_address_by_writing_the_header_itself(checking_games, book, database_path,
                                                                       tmp_path):
    client = app_with(tmp_path, database_path, "proxy_count = 1").test_client()
    # nginx appends the address it saw; what the client wrote before it is not believed
    assert comment_statuses(client, ["203.0.113.1, 198.51.100.7", "203.0.113.2, 198.51.100.7"]) == [303, 429]


def test_without_a_proxy_count_the_headers_are_ignored(checking_games, book, database_path, tmp_path):
    client = app_with(tmp_path, database_path, "proxy_count = 0").test_client()
    assert comment_statuses(client, ["198.51.100.7", "198.51.100.8"]) == [303, 429]


def test_behind_a_proxy_the_session_cookie_is_secure_when_the_proxy_says_https(checking_games, book,
                                                                              database_path, tmp_path):
    client = app_with(tmp_path, database_path, "proxy_count = 1").test_client()
    client.get("/sign-in", environ_base=PROXY, headers={"X-Forwarded-For": "198.51.100.7",
                                                       "X-Forwarded-Proto": "https"})
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.secure
    plain = app_with(tmp_path / "plain", database_path, "proxy_count = 0").test_client()
    plain.get("/sign-in", environ_base=PROXY, headers={"X-Forwarded-Proto": "https"})
    assert not plain.get_cookie("session").secure


def test_an_https_base_url_makes_the_session_cookie_secure(checking_games, book, database_path, tmp_path):
    client = app_with(tmp_path, database_path, 'base_url = "https://localhost"').test_client()
    client.get("/sign-in")  # over plain HTTP, as gunicorn sees a proxy that does not say the scheme
    assert client.get_cookie("session").secure


def test_a_proxy_count_that_is_not_a_whole_number_is_refused(tmp_path, database_path):
    for value, problem in (("-1", "less than 0"), ("\"1\"", "not a whole number"), ("true", "not a whole number")):
        folder = tmp_path / f"site{len(problem)}{value.strip(chr(34))}"
        folder.mkdir()
        (folder / settings.FILE_NAME).write_text(f"[web]\nproxy_count = {value}\n", encoding="utf-8")
        try:
            create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(folder)})
        except settings.SettingsError as error:
            assert "[web] proxy_count" in str(error) and problem in str(error) and "line 2" in str(error)
        else:
            raise AssertionError(f"proxy_count = {value} was taken")

"""The ``[storage]`` caps: an upload that would pass one is a 507 with a sentence, before anything is read or kept."""

from __future__ import annotations

import io
import os

import pytest

from validator import instance, settings
from validator.web import create_app

from .conftest import api_upload, orchard_save


def app_with(tmp_path, database_path, storage: str):
    """An app whose instance folder's settings file holds the given ``[storage]`` lines."""
    folder = tmp_path / "capped"
    (folder / instance.UPLOADS_NAME).mkdir(parents=True)
    (folder / settings.FILE_NAME).write_text(f"[storage]\n{storage}\n", encoding="utf-8")
    app = create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(folder),
                      "SECRET_KEY": "test-only"})
    return app, folder / instance.UPLOADS_NAME


def kept_files(uploads) -> set[str]:
    return set(os.listdir(uploads))


def test_an_upload_past_the_upload_cap_is_a_507_that_names_the_cap(checking_games, book, database_path, tmp_path):
    app, uploads = app_with(tmp_path, database_path, "max_upload_bytes_total = 4000")
    (uploads / "report-earlier.save.xml").write_bytes(b"x" * 3900)
    before = kept_files(uploads)
    response = api_upload(app.test_client(), orchard_save())
    assert response.status_code == 507
    message = response.get_json()["error"]
    assert message.startswith("Referee's store of uploaded saves and maps is full: it holds 3,900 bytes, "
                              "its cap is 4,000 bytes")
    assert "[storage] max_upload_bytes_total" in message and "referee maintenance clean" in message
    assert kept_files(uploads) == before


def test_an_upload_larger_than_the_whole_cap_is_not_told_to_try_again(checking_games, book, database_path, tmp_path):
    app, uploads = app_with(tmp_path, database_path, "max_upload_bytes_total = 100")
    response = api_upload(app.test_client(), orchard_save())
    assert response.status_code == 507
    message = response.get_json()["error"]
    assert "is larger than the whole store of uploaded saves and maps may ever hold (100 bytes)" in message
    assert "send a smaller file" in message and "try again later" not in message
    assert not kept_files(uploads)


def test_the_form_shows_the_same_sentence_as_a_page(checking_games, book, database_path, tmp_path):
    app, uploads = app_with(tmp_path, database_path, "max_upload_bytes_total = 4000")
    (uploads / "report-earlier.save.xml").write_bytes(b"x" * 3900)
    response = app.test_client().post("/check", data={"save": (io.BytesIO(orchard_save()), "crowded.xml")},
                                      content_type="multipart/form-data")
    assert response.status_code == 507 and response.mimetype == "text/html"
    assert "Referee&#39;s store of uploaded saves and maps is full" in response.get_data(as_text=True)


def test_under_the_cap_the_check_is_made_and_kept(checking_games, book, database_path, tmp_path):
    app, uploads = app_with(tmp_path, database_path, 'max_upload_bytes_total = "1MiB"')
    response = api_upload(app.test_client(), orchard_save())
    assert response.status_code == 200
    assert f"report-{response.get_json()['id']}.save.xml" in kept_files(uploads)


def test_a_module_past_the_module_cap_is_a_507(checking_games, book, database_path, tmp_path):
    app, uploads = app_with(tmp_path, database_path, "max_module_bytes_total = 100000")
    (uploads / "module-earlier.vmod").write_bytes(b"m" * 99_000)
    before = kept_files(uploads)
    response = api_upload(app.test_client(), b"PK\x05\x06" + bytes(18), name="game.vsav", game="alpha",
                          module=(b"PK\x05\x06" + bytes(18) * 200, "game.vmod"))
    assert response.status_code == 507
    assert response.get_json()["error"].startswith(
        "Referee's store of kept modules is full: it holds 99,000 bytes, its cap is 100,000 bytes")
    assert "[storage] max_module_bytes_total" in response.get_json()["error"]
    assert kept_files(uploads) == before


def test_the_module_cap_does_not_refuse_a_save_sent_without_a_module(checking_games, book, database_path, tmp_path):
    app, uploads = app_with(tmp_path, database_path, "max_module_bytes_total = 100000")
    (uploads / "module-earlier.vmod").write_bytes(b"m" * 99_000)
    assert api_upload(app.test_client(), orchard_save()).status_code == 200


@pytest.mark.parametrize(("line", "named"), [
    ('max_upload_bytes_total = "lots"', ("max_upload_bytes_total", "'lots'")),
    ("clean_on_start = 1", ("clean_on_start", "1")),
    ("max_bytes = 10", ("'max_bytes'", "max_upload_bytes_total, max_module_bytes_total, orphan_grace_seconds, "
                                       "clean_on_start")),
])
def test_a_bad_storage_setting_is_refused_naming_the_file_line_and_key(database_path, tmp_path, line, named):
    with pytest.raises(settings.SettingsError) as raised:
        app_with(tmp_path, database_path, line)
    message = str(raised.value)
    assert message.startswith(f"{tmp_path / 'capped' / settings.FILE_NAME}, line 2: [storage] ")
    assert all(part in message for part in named), message

"""An app given a database URL keeps its files in the instance folder, not in a folder named after the URL."""

from __future__ import annotations

from pathlib import Path

from validator.web import create_app


def test_a_database_url_without_an_instance_uses_the_instance_folder(postgresql_schema, instance_dir, tmp_path,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = create_app({"TESTING": True, "DATABASE": postgresql_schema, "SECRET_KEY": "test-only"})
    assert Path(app.instance_path) == instance_dir.resolve()
    assert not (tmp_path / "postgresql:").exists()  # what the URL's "parent" was taken for

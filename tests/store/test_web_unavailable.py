"""The web app on a PostgreSQL server it cannot use, or loses during a request: a 503 page with a sentence."""

from __future__ import annotations

import psycopg
import pytest

from validator.web import create_app, database

from tests.databases import postgresql_server


def test_a_server_that_cannot_be_reached_is_a_503_with_the_sentence(instance_dir, caplog):
    app = create_app({"TESTING": True, "INSTANCE": str(instance_dir), "SECRET_KEY": "test-only",
                      "DATABASE": "postgresql://referee@/referee?host=/nonexistent-socket-folder"})
    response = app.test_client().get("/tito/search?q=stream")
    assert response.status_code == 503
    assert "Referee cannot use its database just now" in response.get_data(as_text=True)
    assert "cannot be reached" in caplog.text  # the log says why; the page does not show the server's address


@pytest.fixture
def lost_midway(postgresql_schema, instance_dir):
    """An app whose database connection is ended by the server after it was opened, before the page reads."""
    app = create_app({"TESTING": True, "INSTANCE": str(instance_dir), "SECRET_KEY": "test-only",
                      "DATABASE": postgresql_schema})

    @app.before_request
    def end_the_connection():
        backend = database.connection().execute("SELECT pg_backend_pid()").fetchone()[0]
        with psycopg.connect(postgresql_server(), autocommit=True) as keeper:
            keeper.execute("SELECT pg_terminate_backend(%s)", (backend,))

    return app


def test_a_connection_lost_during_a_request_is_a_503_not_a_500(lost_midway, caplog):
    response = lost_midway.test_client().get("/tito/search?q=stream")
    assert response.status_code == 503
    assert "Referee cannot use its database just now" in response.get_data(as_text=True)
    assert "PostgreSQL server cannot be reached or used" in caplog.text

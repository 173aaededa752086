"""The web app's main pages on PostgreSQL: the home, contents, case, search and report tests, run again there.

Each test below is the one of its module in tests/web, collected here a
second time with ``database_path`` naming a fresh PostgreSQL schema instead
of a SQLite file, so the rulebook the tests import, the reports they store
and the pages they read all go through the server.
"""

from __future__ import annotations

import pytest

from tests.web.test_case_page import *  # noqa: F403
from tests.web.test_check_reports import *  # noqa: F403
from tests.web.test_contents import *  # noqa: F403
from tests.web.test_home import *  # noqa: F403
from tests.web.test_search import *  # noqa: F403


@pytest.fixture
def database_path(postgresql_schema):
    """The database of every fixture of tests/web/conftest.py: a PostgreSQL schema's URL."""
    return postgresql_schema

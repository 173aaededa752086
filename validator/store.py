"""The instance database: one SQLite file in the instance folder by default, or a PostgreSQL server.

``connect`` takes the SQLite file's path or a ``postgresql://`` URL (what
``validator.instance.database_target`` says is in force); both connections
take ``?`` placeholders, give rows readable by name and index, and say which
database they are in ``connection.dialect``.  The PostgreSQL side, and why its
write transactions take one advisory lock, is ``validator.postgresql``.

Every caller opens its own connection (the web app one per request) with
foreign keys on and a busy timeout, and wraps each read-then-write in
``BEGIN IMMEDIATE``.  WAL is deliberately not enabled: the SQLite linked into
this Python (3.40) has a WAL-reset bug under several writing processes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from validator.errors import InputError
from validator.instance import ENVIRONMENT_VARIABLE, create_private_file

BUSY_TIMEOUT_SECONDS = 10

# What SQLite says about the database file itself, by the first two words of its error
# name (SQLITE_READONLY_DBMOVED is read-only too), and what the user can do about it.
_ELSEWHERE = f"or set {ENVIRONMENT_VARIABLE} to a folder Referee may write in"
_FILE_PROBLEMS = {
    "SQLITE_NOTADB": "is not a Referee database; move it aside and import your rulebooks again",
    "SQLITE_CORRUPT": "is damaged; move it aside and import your rulebooks again",
    "SQLITE_CANTOPEN": f"cannot be opened; make it a file Referee may read and write, {_ELSEWHERE}",
    "SQLITE_READONLY": f"cannot be written, as the file or its folder is read-only; make them writable, {_ELSEWHERE}",
    "SQLITE_PERM": f"cannot be written; give Referee the right to write it, {_ELSEWHERE}",
    "SQLITE_BUSY": (
        f"is held by another program for more than {BUSY_TIMEOUT_SECONDS} seconds; try again once it is done"
    ),
    "SQLITE_LOCKED": "is locked by another connection; try again once it is done",
    "SQLITE_FULL": "cannot grow, as the disk is full; free some space and try again",
    "SQLITE_IOERR": f"cannot be read or written (a disk error); check the disk, {_ELSEWHERE}",
}


class UnusableDatabase(InputError):
    """The database file cannot be opened, read or written: not a database, damaged, read-only, full or busy."""


SQLITE = "sqlite"
POSTGRESQL = "postgresql"

# The statements of the first two migrations that both databases share.
_RULEBOOK_TABLES = """
    CREATE TABLE rulebook (
        game TEXT PRIMARY KEY,
        imported_at TEXT NOT NULL,
        sources TEXT NOT NULL,          -- JSON list of file names
        front_matter TEXT NOT NULL,     -- JSON list of blocks
        unplaced TEXT NOT NULL,         -- JSON list
        repairs TEXT NOT NULL           -- JSON list
    );
    CREATE TABLE rule_case (
        game TEXT NOT NULL REFERENCES rulebook(game) ON DELETE CASCADE,
        number TEXT NOT NULL,
        label TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        parent TEXT,
        source TEXT NOT NULL,
        line INTEGER NOT NULL,
        notes TEXT NOT NULL,            -- JSON list
        blocks TEXT NOT NULL,           -- JSON list of blocks with their references
        PRIMARY KEY (game, number)
    );
"""
_REPORT_PROVENANCE = """
    ALTER TABLE report ADD COLUMN referee_version TEXT;  -- NULL: stored before Referee recorded it
    ALTER TABLE report ADD COLUMN plugin_version TEXT;
    ALTER TABLE report ADD COLUMN map_sha256 TEXT;       -- NULL also when no map file was read
    ALTER TABLE report ADD COLUMN mapping_sha256 TEXT;
    ALTER TABLE report ADD COLUMN module_sha256 TEXT;
    UPDATE report SET module_sha256 = (SELECT sha256 FROM vassal_module WHERE vassal_module.id = report.module_id)
        WHERE module_id IS NOT NULL;
"""

# Each entry brings the schema from version N to N+1.  Append, never edit.  An entry is one
# script for both databases, or, only where they cannot share one (full-text search, rebuilding a
# table), a script for each by dialect.
MIGRATIONS: list[str | dict[str, str]] = [
    {
        SQLITE: _RULEBOOK_TABLES + """
    CREATE VIRTUAL TABLE rule_search USING fts5(
        game UNINDEXED, number UNINDEXED, title, body, tokenize = 'porter unicode61'
    );
    """,
        # Titles weigh more than text (weight A against B), as bm25's weights do on SQLite.  The
        # parser would take <...> for markup and skip it (a <script> with its words), so < > & are
        # read as spaces (validator/rulebook/storage.py highlights the same way).
        POSTGRESQL: _RULEBOOK_TABLES + """
    CREATE TABLE rule_search (
        game TEXT NOT NULL,
        number TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        document tsvector GENERATED ALWAYS AS (
            setweight(to_tsvector('english', translate(title, '<>&', '   ')), 'A')
            || setweight(to_tsvector('english', translate(body, '<>&', '   ')), 'B')
        ) STORED
    );
    CREATE INDEX rule_search_document ON rule_search USING GIN (document);
    CREATE INDEX rule_search_case ON rule_search (game, number);
    """,
    },
    # Arbitration records: one row per check made through the web (validator/web/records.py).
    """
    CREATE TABLE report (
        id TEXT PRIMARY KEY,            -- random, URL-safe; the permanent address /reports/<id>
        game TEXT NOT NULL,
        created_at TEXT NOT NULL,
        source_name TEXT NOT NULL,      -- the uploaded file's name as given; display only
        map_name TEXT,                  -- the save's map href, when it named one
        map_origin TEXT,                -- uploaded or shipped
        report TEXT NOT NULL,           -- the report JSON
        save_file TEXT NOT NULL,        -- generated file name in the instance's uploads folder
        map_file TEXT,                  -- generated file name of the map used, when by reference
        picture TEXT,                   -- the cleaned SVG drawn at check time
        picture_note TEXT               -- why there is no picture, when there is none
    );
    CREATE INDEX report_by_game ON report (game, created_at);
    """,
    # VASSAL modules kept for later uploads, one per name and version
    # (validator/web/kept_modules.py), and what a VASSAL check used.
    """
    CREATE TABLE vassal_module (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,             -- as the module's buildFile (or moduledata) names it
        version TEXT NOT NULL,          -- likewise; '' when the module gives none
        file TEXT NOT NULL,             -- generated file name in the instance's uploads folder
        source_name TEXT NOT NULL,      -- the uploaded file's name as given; display only
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        sides TEXT NOT NULL,            -- JSON list of the module's roster sides
        kept_at TEXT NOT NULL,
        UNIQUE (name, version)
    );
    ALTER TABLE report ADD COLUMN module_id INTEGER REFERENCES vassal_module(id);
    ALTER TABLE report ADD COLUMN module_name TEXT;     -- set for VASSAL saves only
    ALTER TABLE report ADD COLUMN module_version TEXT;
    ALTER TABLE report ADD COLUMN viewer TEXT;          -- the roster side; NULL for a spectator
    ALTER TABLE report ADD COLUMN export_note TEXT;     -- how many pieces were exported, and what was skipped
    """,
    # Reference-only games: games with no plugin whose rulebooks a user imports (validator/catalogue.py).
    """
    CREATE TABLE added_game (
        id TEXT PRIMARY KEY,            -- lowercase letters, digits and dashes; never a plugin's id
        title TEXT NOT NULL,
        added_at TEXT NOT NULL
    );
    """,
    # Kept modules are identified by the SHA-256 of their bytes, no longer by name and version: two
    # uploads with the same name and version but other bytes are two modules.  The table is rebuilt
    # (SQLite cannot drop a UNIQUE constraint); rows keep their ids and hashes, which were always of
    # the kept file's bytes, and their build file's hash is unknown (NULL) until Referee records it.
    # Each report records what it was checked with (validator/provenance.py); a VASSAL report stored
    # before gets its kept module's hash, which is the module it was read with; the rest stays NULL.
    {SQLITE: """
    CREATE TABLE vassal_module_by_hash (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE,    -- of the bytes read: the .vmod, or a bare build file
        name TEXT NOT NULL,             -- as the module's buildFile (or moduledata) names it
        version TEXT NOT NULL,          -- likewise; '' when the module gives none
        build_file_sha256 TEXT,         -- of the buildFile entry (the file itself when bare); NULL: not recorded
        file TEXT NOT NULL,             -- generated file name in the instance's uploads folder
        source_name TEXT NOT NULL,      -- the uploaded file's name as given; display only
        size INTEGER NOT NULL,
        sides TEXT NOT NULL,            -- JSON list of the module's roster sides
        kept_at TEXT NOT NULL
    );
    INSERT INTO vassal_module_by_hash (id, sha256, name, version, file, source_name, size, sides, kept_at)
        SELECT id, sha256, name, version, file, source_name, size, sides, kept_at FROM vassal_module;
    DROP TABLE vassal_module;
    ALTER TABLE vassal_module_by_hash RENAME TO vassal_module;
    CREATE INDEX vassal_module_by_name ON vassal_module (name, version);
    """ + _REPORT_PROVENANCE,
     # PostgreSQL drops and adds constraints in place, keeping the reports' references to the rows.
     POSTGRESQL: """
    ALTER TABLE vassal_module DROP CONSTRAINT vassal_module_name_version_key;
    ALTER TABLE vassal_module ADD CONSTRAINT vassal_module_sha256_key UNIQUE (sha256);
    ALTER TABLE vassal_module ADD COLUMN build_file_sha256 TEXT;
    CREATE INDEX vassal_module_by_name ON vassal_module (name, version);
    """ + _REPORT_PROVENANCE},
    # Arbitration records (validator/arbitration/): arbiters and the counters that slow failed sign-ins
    # and limit players' comments, case files grouping reports, comments, ruling requests and rulings.
    """
    CREATE TABLE arbiter (
        name TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,    -- werkzeug.security's scrypt hash
        added_at TEXT NOT NULL,
        password_changed_at TEXT NOT NULL
    );
    CREATE TABLE sign_in_failure (
        name TEXT NOT NULL,             -- the name tried, whether or not an arbiter has it
        client TEXT NOT NULL,           -- the client's address
        failures INTEGER NOT NULL,
        last_failed_at TEXT NOT NULL,
        PRIMARY KEY (name, client)
    );
    CREATE TABLE client_counter (
        action TEXT NOT NULL,           -- what is counted, such as comment
        client TEXT NOT NULL,
        window_started_at TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (action, client)
    );
    CREATE TABLE case_file (
        id TEXT PRIMARY KEY,            -- random, URL-safe: the permanent address /case-files/<id>
        game TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,             -- save, pair, log or chain
        opened_at TEXT NOT NULL
    );
    CREATE INDEX case_file_by_game ON case_file (game, opened_at);
    CREATE TABLE case_file_report (
        case_file TEXT NOT NULL REFERENCES case_file(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,      -- from 1, in the order of play
        report_id TEXT NOT NULL REFERENCES report(id),
        role TEXT NOT NULL,             -- save, before, after, log or step
        PRIMARY KEY (case_file, position)
    );
    CREATE INDEX case_file_report_by_report ON case_file_report (report_id);
    CREATE TABLE case_comment (
        id TEXT PRIMARY KEY,
        case_file TEXT NOT NULL REFERENCES case_file(id) ON DELETE CASCADE,
        author TEXT NOT NULL,           -- as the player gave it; plain text
        body TEXT NOT NULL,             -- plain text
        written_at TEXT NOT NULL
    );
    CREATE INDEX case_comment_by_case_file ON case_comment (case_file, written_at);
    CREATE TABLE ruling_request (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        number INTEGER NOT NULL,        -- per game, from 1
        question TEXT NOT NULL,
        options TEXT NOT NULL,          -- JSON list of {"label", "reading"}
        choice TEXT,                    -- the label the arbiter chose; NULL while open
        origin TEXT NOT NULL,           -- unchecked (a report's finding) or question (a player's)
        report_id TEXT REFERENCES report(id),
        case_number TEXT,               -- the unchecked finding's case
        case_file TEXT REFERENCES case_file(id),
        opened_by TEXT NOT NULL,
        opened_at TEXT NOT NULL,
        UNIQUE (game, number)
    );
    CREATE TABLE ruling (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        case_file TEXT REFERENCES case_file(id),
        request_id TEXT REFERENCES ruling_request(id),
        arbiter TEXT NOT NULL,
        status TEXT NOT NULL,           -- open, ruled or withdrawn
        decision TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        review_note TEXT                -- why it needs review (a cited case changed); NULL when it does not
    );
    CREATE INDEX ruling_by_game ON ruling (game, updated_at);
    CREATE TABLE ruling_citation (
        ruling TEXT NOT NULL REFERENCES ruling(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        number TEXT NOT NULL,
        case_text TEXT NOT NULL,        -- the case's stored blocks (JSON) when the ruling cited it
        PRIMARY KEY (ruling, number)
    );
    CREATE INDEX ruling_citation_by_case ON ruling_citation (game, number);
    CREATE TABLE ruling_revision (
        ruling TEXT NOT NULL REFERENCES ruling(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,      -- from 1
        arbiter TEXT NOT NULL,
        status TEXT NOT NULL,
        decision TEXT NOT NULL,
        cases TEXT NOT NULL,            -- JSON list of the case numbers cited
        written_at TEXT NOT NULL,
        PRIMARY KEY (ruling, revision)
    );
    CREATE TABLE ruling_exception (
        ruling TEXT NOT NULL REFERENCES ruling(id) ON DELETE CASCADE,
        report_id TEXT NOT NULL REFERENCES report(id),
        case_number TEXT NOT NULL,      -- the violation's case
        check_name TEXT NOT NULL,       -- the violation's rule id (the check that found it)
        location TEXT NOT NULL,         -- '' when the violation has none
        pieces TEXT NOT NULL,           -- JSON list of piece ids, as the report lists them
        reason TEXT NOT NULL,
        PRIMARY KEY (ruling, report_id, case_number, check_name, location, pieces)
    );
    CREATE INDEX ruling_exception_by_report ON ruling_exception (report_id);
    """,
    # House rules set on the web (validator/kept_house_rules.py): one severity per game, case and check.
    """
    CREATE TABLE house_rule (
        game TEXT NOT NULL,
        case_number TEXT NOT NULL,
        check_name TEXT NOT NULL,
        severity TEXT NOT NULL,         -- error, warning or off
        reason TEXT NOT NULL,
        arbiter TEXT NOT NULL,          -- who set it last
        set_at TEXT NOT NULL,           -- ISO-8601 UTC
        PRIMARY KEY (game, case_number, check_name)
    );
    """,
    # When a report's uploaded files were removed (retention, or an arbiter): validator/retention.py.
    """
    ALTER TABLE report ADD COLUMN uploads_removed_at TEXT;
    """,
    # The case texts each revision of a ruling was made under (validator/arbitration/rulings.py); a
    # ruling's latest revision takes its citations' kept texts, earlier revisions' texts were not kept.
    """
    CREATE TABLE ruling_revision_citation (
        ruling TEXT NOT NULL,
        revision INTEGER NOT NULL,
        number TEXT NOT NULL,
        case_text TEXT NOT NULL,        -- the case's text as the revision cited it
        PRIMARY KEY (ruling, revision, number),
        FOREIGN KEY (ruling, revision) REFERENCES ruling_revision(ruling, revision) ON DELETE CASCADE
    );
    INSERT INTO ruling_revision_citation (ruling, revision, number, case_text)
        SELECT ruling,
               (SELECT MAX(revision) FROM ruling_revision WHERE ruling_revision.ruling = ruling_citation.ruling),
               number, case_text
        FROM ruling_citation
        WHERE EXISTS (SELECT 1 FROM ruling_revision WHERE ruling_revision.ruling = ruling_citation.ruling);
    """,
    # The option each ruling chose of the request it answers (validator/arbitration/rulings.py); a
    # request's choice is its newest answering ruling's that is not withdrawn.  A request's choice
    # stored before is given to its newest answering ruling.
    """
    ALTER TABLE ruling ADD COLUMN choice TEXT;
    UPDATE ruling SET choice = (SELECT choice FROM ruling_request WHERE ruling_request.id = ruling.request_id)
        WHERE request_id IS NOT NULL AND id = (SELECT newer.id FROM ruling AS newer
                                               WHERE newer.request_id = ruling.request_id
                                               ORDER BY newer.created_at DESC, newer.id DESC LIMIT 1);
    """,
]


class Row(Protocol):
    """A result row on either database: by column name or by index."""

    def __getitem__(self, key: str | int) -> Any: ...


class Connection(Protocol):
    """What callers use of a connection on either database (``sqlite3.Connection``, ``postgresql.Connection``)."""

    dialect: str

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...

    def close(self) -> None: ...


class SQLiteConnection(sqlite3.Connection):
    """SQLite's own connection, saying which database it is (``connection.dialect``)."""

    dialect = SQLITE


def connect(target: Path | str) -> Connection:
    """Open the database, creating or upgrading its schema; a new SQLite file is readable by its owner only.

    ``target`` is the SQLite file's path, or a ``postgresql://`` URL.
    """
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        try:
            from validator import postgresql  # psycopg only for a site that uses it
        except ImportError:
            raise UnusableDatabase("REFEREE_DATABASE_URL", "names a PostgreSQL database, but psycopg is not "
                                   "installed; install it with pip install '.[postgresql]'.") from None
        return postgresql.connect(target, migration_statements(POSTGRESQL))
    path = Path(target)
    create_private_file(path)
    try:
        connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
                                     factory=SQLiteConnection)
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
        _migrate(connection)
    except sqlite3.DatabaseError as error:
        raise unusable(path, error) from None
    return connection


@contextmanager
def write_transaction(connection: Connection) -> Iterator[Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error; a file that refuses the write is said so.

    On PostgreSQL, a transaction holding the database's write lock (``validator.postgresql``).
    """
    if getattr(connection, "dialect", SQLITE) == POSTGRESQL:
        from validator import postgresql

        with postgresql.write_transaction(connection):
            yield connection
        return
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    except sqlite3.DatabaseError as error:
        raise unusable(_file_of(connection), error) from None


def unusable(path: object, error: sqlite3.DatabaseError) -> Exception:
    """The sentence for a database file SQLite cannot use, or ``error`` itself when it is not about the file."""
    name = "_".join((getattr(error, "sqlite_errorname", None) or "").split("_")[:2])
    if name not in _FILE_PROBLEMS:
        return error  # a statement of ours is wrong: a defect, not the user's file
    return UnusableDatabase(path, f"{_FILE_PROBLEMS[name]} (SQLite: {error})")


def _file_of(connection: sqlite3.Connection) -> str:
    try:
        return connection.execute("PRAGMA database_list").fetchone()[2] or "the database"
    except sqlite3.Error:
        return "the database"


def _migrate(connection: sqlite3.Connection) -> None:
    """Bring the schema up to date; the common case (already current) takes no write lock.

    Foreign keys are off while the migrations run, as SQLite's way of
    rebuilding a table requires (dropping a table that rows refer to would
    otherwise fail), and every reference is checked before the commit.
    """
    if connection.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS):
        return
    connection.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction, so set before BEGIN
    try:
        with write_transaction(connection):
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            for step, entry in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in _statements(script_for(entry, SQLITE)):
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {step}")
            broken = connection.execute("PRAGMA foreign_key_check").fetchone()
            if broken is not None:
                raise sqlite3.IntegrityError(f"a migration left a row of {broken[0]} referring to a missing row")
    finally:
        connection.execute("PRAGMA foreign_keys = ON")


def migration_statements(dialect: str) -> list[list[str]]:
    """Every migration's statements for one database, by step."""
    return [_statements(script_for(entry, dialect)) for entry in MIGRATIONS]


def tables_in_reference_order(connection: Connection) -> list[str]:
    """A SQLite database's tables (not full-text search's own), each after the tables its rows refer to."""
    rows = connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).fetchall()
    virtual = [row["name"] for row in rows if row["sql"].upper().startswith("CREATE VIRTUAL TABLE")]
    names = [row["name"] for row in rows if not any(row["name"].startswith(f"{table}_") for table in virtual)]
    refers = {name: {row["table"] for row in connection.execute("SELECT * FROM pragma_foreign_key_list(?)", (name,))}
              - {name} for name in names}
    order: list[str] = []
    while refers:
        ready = sorted(name for name, targets in refers.items() if targets <= set(order))
        if not ready:
            raise sqlite3.IntegrityError(f"the tables {', '.join(sorted(refers))} refer to each other in a circle")
        order.extend(ready)
        for name in ready:
            del refers[name]
    return order


def table_columns(connection: Connection, table: str) -> list[str]:
    """A SQLite table's column names, in order."""
    return [row["name"] for row in connection.execute("SELECT name FROM pragma_table_info(?)", (table,))]


def script_for(entry: str | dict[str, str], dialect: str) -> str:
    """A migration's script for one database: the shared one, or that dialect's own."""
    return entry if isinstance(entry, str) else entry[dialect]


def _statements(script: str) -> list[str]:
    """Split a migration into statements (executescript would commit our transaction)."""
    statements, current = [], []
    for line in script.splitlines():
        current.append(line.split("--", 1)[0])
        candidate = "\n".join(current).strip()
        if candidate.endswith(";") and sqlite3.complete_statement(candidate):
            statements.append(candidate)
            current = []
    return statements

"""Fixtures for the page tests: invented games, a hand-built rulebook, an app.

The rulebook text below is invented for these tests (a made-up game about
tokens in an orchard); it is not taken from any real rulebook.  Three games
replace the registry: "alpha" has that rulebook imported, "beta" has only a
case index, and "gamma" has neither (its index file is missing).

Every test here that touches the database runs twice, on SQLite and on
PostgreSQL (a schema of the test server emptied for it, ``tests/databases.py``): a
test taking ``database_path`` (so every ``app`` and ``client`` fixture), and
every test of :data:`INSTANCE_DATABASE_MODULES`, whose apps use the instance
folder's database.  On PostgreSQL ``REFEREE_DATABASE_URL`` names the schema,
so the command line and every app the test makes use it too.  Tests that
never open the database (pure functions, pictures) run once.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import lxml.html
import pytest

from validator import games, instance, rules, store
from validator.cases import CaseNumber
from validator.games import Game
from validator.rulebook import storage
from validator.rulebook.model import (
    BULLET,
    GENERAL_RULE,
    HEADING,
    ITEM,
    PARAGRAPH,
    PROCEDURE,
    TABLE,
    Block,
    Case,
    Reference,
    Rulebook,
    TablePart,
)
from validator.rules import RuleSet
from validator.web import create_app

_MARKED_REFERENCE = re.compile(r"\[([^\]]+)\]")

# The import command a page shows in its import hint.
IMPORT_COMMAND = "string(//div[contains(@class, 'import-hint')]//code)"


def written(kind: str, text: str, depth: int = 0) -> Block:
    """A block whose references are written in brackets: "see [2.1]" refers to 2.1."""
    references = []
    plain = ""
    position = 0
    for match in _MARKED_REFERENCE.finditer(text):
        plain += text[position : match.start()]
        start = len(plain)
        plain += match[1]
        references.append(Reference(start, len(plain), CaseNumber.parse(match[1])))
        position = match.end()
    plain += text[position:]
    return Block(kind, plain, depth=depth, references=references)


def resolve(blocks: list[Block], book: Rulebook) -> list[Block]:
    """Mark each reference resolved when the book holds its target, as an importer would."""
    for block in blocks:
        block.references = [
            Reference(found.start, found.end, found.target, found.target in book.cases)
            for found in block.references
        ]
    return blocks


def item_slot(number: str) -> Block:
    return Block(ITEM, "", item=CaseNumber.parse(number))


def case(number: str, title: str, *blocks: Block, kind: str = "case", notes=()) -> Case:
    parsed = CaseNumber.parse(number)
    label = parsed.letter if parsed.letter else number
    return Case(parsed, label, title, kind, parsed.parent, list(blocks), notes=list(notes))


def orchard_rulebook() -> Rulebook:
    """The invented rulebook of game "alpha", its references resolved against its cases."""
    cases = [
        case(
            "1",
            "Introduction",
            written(GENERAL_RULE, "Players take turns moving tokens across the orchard; see [2.1]."),
            kind="section",
        ),
        case("1.1", "Scope", written(PARAGRAPH, "Weather is handled by [9.9], which is not here.")),
        case(
            "2",
            "Movement",
            written(PROCEDURE, "Procedure: move each token, then check stacking under [2.2]."),
            written(BULLET, "Tokens move one at a time."),
            written(BULLET, "A moving token may not pass through another.", depth=1),
            written(HEADING, "Movement costs"),
            Block(
                TABLE,
                table=(
                    TablePart(
                        title="Orchard Terrain Costs",
                        groups=("Terrain",),
                        header=("Kind", "Cost"),
                        rows=(("Grass", "1"), ("Hedge", "2")),
                    ),
                ),
            ),
            kind="section",
        ),
        case("2.1", "", written(PARAGRAPH, "A token moves three spaces; exceptions are in [2.13].")),
        case(
            "2.13",
            "Exceptions",
            written(PARAGRAPH, "Two exceptions apply:"),
            item_slot("2.13A"),
            item_slot("2.13B"),
            written(PARAGRAPH, "Both exceptions end at the close of the turn."),
        ),
        case("2.13A", "Streams", written(PARAGRAPH, "A token stops at a stream; see [3.4]."), kind="item"),
        case("2.13B", "Bridges", written(PARAGRAPH, "A token on a bridge ignores [2.13A]."), kind="item"),
        case(
            "2.2",
            "Stacking",
            written(
                PARAGRAPH,
                "At most two tokens share a space <script>alert(1)</script> & so on;"
                " bridges follow [2.13B].",
            ),
            notes=["The printed number 2.3 was corrected to 2.2."],
        ),
        case("3", "Ending", written(PARAGRAPH, "The game ends after turn six; [1] gives the aim."), kind="section"),
    ]
    book = Rulebook(
        game="alpha",
        sources=["orchard-rules.txt"],
        cases={found.number: found for found in cases},
        front_matter=[
            written(PARAGRAPH, "These invented rules only test the pages; read [1] first."),
            written(BULLET, "Keep the pieces sorted."),
        ],
    )
    for found in book.cases.values():
        resolve(found.blocks, book)
    resolve(book.front_matter, book)
    return book


def _game_folder(folder: Path, name: str, entries: dict[str, str]) -> Path:
    """A game's folder in ``folder``, holding its case index."""
    path = folder / name
    path.mkdir()
    lines = ["[cases]", *(f'"{number}" = "{title}"' for number, title in entries.items())]
    (path / "cases.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _orchard_rules() -> RuleSet:
    @rules.case("2.2")
    def overstacked_space(position):
        """No space may hold more than two tokens."""
        yield from ()

    @rules.case("2.13A", severity="warning")
    def token_past_stream(position):
        """A token that reached a stream must stop there."""
        yield from ()

    return RuleSet.from_functions("alpha", [overstacked_space, token_past_stream])


def _beta_rules() -> RuleSet:
    @rules.case("1.2")
    def reserve_too_large(position):
        """The reserve may hold at most four tokens."""
        yield from ()

    return RuleSet.from_functions("beta", [reserve_too_large])


@pytest.fixture
def test_games(tmp_path, monkeypatch) -> dict[str, Game]:
    """The invented games, put in place of the real registry for one test."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    registry = {
        "alpha": Game(
            id="alpha",
            title="Orchard Raid",
            rulebook_files=("orchard-rules.txt",),
            folder=_game_folder(
                folder,
                "alpha",
                {"1": "Our introduction", "2.1": "Moving tokens", "2.2": "Stacking limit"},
            ),
            rules=_orchard_rules(),
        ),
        "beta": Game(
            id="beta",
            title="Beta Skirmish",
            rulebook_files=("beta-rules.txt", "beta-charts.txt"),
            folder=_game_folder(
                folder,
                "beta",
                {"1": "Setting up", "1.1": "Placing tokens", "1.2": "Reserves", "2": "Scoring"},
            ),
            rules=_beta_rules(),
        ),
        "gamma": Game(
            id="gamma",
            title="Gamma Without Index",
            rulebook_files=("gamma.txt",),
            folder=folder / "gamma",
            rules=RuleSet("gamma"),
        ),
    }
    monkeypatch.setattr(games, "registry", lambda: registry)
    return registry


DATABASES = ("sqlite", "postgresql")

# The modules whose apps open the instance folder's database (create_app without a DATABASE of
# its own, or the command line) rather than the database_path fixture's.
INSTANCE_DATABASE_MODULES = frozenset({
    "test_check_chains", "test_check_steps", "test_check_tito", "test_check_vassal",
    "test_counts_agree", "test_imported_pages", "test_modules_by_hash",
    "test_provenance", "test_real_rulebook_pages", "test_reference_only_pages",
})

# Tests of SQLite's own file: an old instance's database built by hand and migrated.
SQLITE_ONLY_TESTS = frozenset({
    "test_provenance.test_an_old_database_is_migrated_and_its_module_and_report_keep_working",
})


def pytest_generate_tests(metafunc):
    """Each test of tests/web that opens the database: once on SQLite, once on PostgreSQL."""
    if f"{metafunc.module.__name__.rsplit('.', 1)[-1]}.{metafunc.function.__name__}" in SQLITE_ONLY_TESTS:
        return
    if "database_path" in metafunc.fixturenames:
        metafunc.parametrize("database_path", DATABASES, indirect=True)
    elif metafunc.module.__name__.rsplit(".", 1)[-1] in INSTANCE_DATABASE_MODULES:
        metafunc.parametrize("instance_database", DATABASES, indirect=True)


def _on_postgresql(request, monkeypatch) -> str:
    """An emptied PostgreSQL schema's URL, named in REFEREE_DATABASE_URL for the test's apps and commands."""
    url = request.getfixturevalue("emptied_postgresql_schema")
    monkeypatch.setenv(instance.DATABASE_URL_VARIABLE, url)
    return url


@pytest.fixture(autouse=True)
def instance_database(request, monkeypatch) -> str:
    """For the tests of INSTANCE_DATABASE_MODULES: the instance's SQLite file, or a PostgreSQL schema."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return _on_postgresql(request, monkeypatch)
    monkeypatch.delenv(instance.DATABASE_URL_VARIABLE, raising=False)
    return "sqlite"


@pytest.fixture
def database_path(request, tmp_path, monkeypatch) -> Path | str:
    """The pages' database: a SQLite file, or (parametrised so in tests/web) an emptied PostgreSQL schema's URL."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return _on_postgresql(request, monkeypatch)
    return tmp_path / "pages.sqlite3"


@pytest.fixture
def book(database_path) -> Rulebook:
    """The orchard rulebook, saved as game "alpha" into the test database."""
    built = orchard_rulebook()
    connection = store.connect(database_path)
    try:
        storage.save(connection, built)
    finally:
        connection.close()
    return built


@pytest.fixture
def app(test_games, book, database_path, tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(tmp_path / "web-instance"),
                       "SECRET_KEY": "test-only"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def real_client(database_path, tmp_path):
    """The app with the real game registry and an empty database."""
    app = create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(tmp_path / "web-instance"),
                      "SECRET_KEY": "test-only"})
    return app.test_client()


def html(response) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(response.get_data(as_text=True))


def text_of(element) -> str:
    """An element's text with whitespace collapsed, as a reader sees it."""
    return " ".join(element.text_content().split())


def crawl(client, start: str, limit: int = 400) -> dict[str, int]:
    """Follow every same-site link from ``start``; the status of each page reached."""
    seen: dict[str, int] = {}
    queue = deque([start])
    while queue and len(seen) < limit:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response.status_code
        if response.status_code != 200 or not response.mimetype == "text/html":
            continue
        for href in html(response).xpath("//a/@href | //link/@href"):
            target = urlsplit(urljoin(url, href))
            if target.scheme in ("", "http") and target.netloc in ("", "localhost"):
                queue.append(target.path + (f"?{target.query}" if target.query else ""))
    return seen


# -- Checking positions ---------------------------------------------------------
#
# For the check and report tests, "alpha" gets rules that find something, a map
# it ships in its plugin's maps folder, and a picture.  The orchard has two rows
# of spaces; tokens are its pieces.

SVG = "http://www.w3.org/2000/svg"

ORCHARD_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map xmlns="urn:referee:save:1" id="orchard">
  <area id="north" name="North Row" neighbours="south">
    <location id="north/gate" name="Gate" kind="space"/>
    <location id="north/well" name="Well" kind="space"/>
  </area>
  <area id="south" name="South Row" neighbours="north">
    <location id="south/stream" name="Stream" kind="space"/>
    <location id="south/barn" name="Barn" kind="space"/>
  </area>
</map>
"""

TOKEN = '    <piece id="{id}" name="{name}" side="red" type="token" location="{at}"{extra}/>'


def orchard_save(
    pieces: list[tuple[str, str]] | None = None,
    map_part: str = '<map href="orchard-map.xml"/>',
    game: str = "alpha",
    extra_pieces: str = "",
) -> bytes:
    """A save of the orchard game; ``pieces`` are (id, location) pairs."""
    if pieces is None:
        pieces = CROWDED
    lines = [TOKEN.format(id=id, name=f"Token {id}", at=at, extra="") for id, at in pieces]
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<position xmlns="urn:referee:save:1" version="1" game="{game}" scenario="harvest" turn="3"
          phase="movement" phasing="red">
  {map_part}
  <pieces>
{chr(10).join(lines)}
{extra_pieces}
  </pieces>
</position>
"""
    return text.encode("utf-8")


# Three tokens at the gate break 2.2; t9 crossed the stream, breaking 2.13A.
CROWDED = [("t1", "north/gate"), ("t2", "north/gate"), ("t3", "north/gate"), ("t4", "south/barn")]
# t9's name carries markup, written escaped in the XML: it must stay text on every page.
STREAM_CROSSER = TOKEN.format(
    id="t9", name="Nine &lt;script&gt;alert(9)&lt;/script&gt; &amp; co", at="south/stream", extra=' crossed="stream"'
)
STREAM_CROSSER_NAME = "Nine <script>alert(9)</script> & co"
LEGAL = [("t1", "north/gate"), ("t2", "north/well"), ("t4", "south/barn")]


def _checking_rules():
    from validator.rules import Finding, Violation

    @rules.case("2.2")
    def overstacked_space(position):
        """No space may hold more than two tokens."""
        for location, pieces in position.stacks().items():
            if len(pieces) > 2:
                names = ", ".join(piece.name for piece in pieces)
                yield Violation(
                    f"{len(pieces)} tokens ({names}); the limit is 2", location, [piece.id for piece in pieces]
                )

    @rules.case("2.13", severity="warning")
    def token_past_stream(position):
        """A token that reached a stream must stop there (2.13A)."""
        for piece in position.pieces:
            if piece.attribute("crossed") == "stream":
                yield Violation(f"{piece.name} moved on past the stream", piece.location, [piece.id], case="2.13A")

    @rules.case("1.1")
    def weather(position):
        """Counts the tokens and says weather is not checked."""
        yield Finding(f"{len(position.pieces)} tokens on the map", facts={"tokens": len(position.pieces)})
        yield Finding("the weather is not in the save", severity="unchecked")

    return RuleSet.from_functions("alpha", [overstacked_space, token_past_stream, weather])


def orchard_picture(position, report) -> str:
    """A simple SVG: a box per space, offending spaces outlined in red with their numbers."""
    from lxml import etree

    numbers: dict[str, list[int]] = {}
    for number, violation in enumerate(report.violations, start=1):
        numbers.setdefault(violation.location, []).append(number)
    root = etree.Element(f"{{{SVG}}}svg", nsmap={None: SVG}, viewBox="0 0 400 200", role="img")
    etree.SubElement(root, f"{{{SVG}}}title").text = "The orchard"
    for row, location in enumerate(position.map.locations.values()):
        group = etree.SubElement(root, f"{{{SVG}}}g", {"class": "space", "data-location": location.id})
        offending = location.id in numbers
        etree.SubElement(
            group, f"{{{SVG}}}rect", x="10", y=str(10 + 45 * row), width="380", height="40",
            fill="#fff", stroke="#c62828" if offending else "#444",
            **({"class": "offending"} if offending else {}),
        )
        names = ", ".join(piece.name for piece in position.pieces_at(location.id))
        text = etree.SubElement(group, f"{{{SVG}}}text", x="20", y=str(35 + 45 * row))
        text.text = f"{position.location_label(location.id)}: {names}"
        if offending:
            badge = etree.SubElement(group, f"{{{SVG}}}text", {"class": "badge"}, x="370", y=str(35 + 45 * row))
            badge.text = ", ".join(map(str, numbers[location.id]))
    return etree.tostring(root, encoding="unicode")


@pytest.fixture
def checking_games(test_games):
    """The invented games, "alpha" with working checks, a shipped map and a picture."""
    import dataclasses

    alpha = test_games["alpha"]
    alpha.maps_folder.mkdir(exist_ok=True)
    (alpha.maps_folder / "orchard-map.xml").write_text(ORCHARD_MAP, encoding="utf-8")
    test_games["alpha"] = dataclasses.replace(alpha, rules=_checking_rules(), picture=orchard_picture)
    return test_games


@pytest.fixture
def check_app(checking_games, book, database_path, tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(database_path),
            "INSTANCE": str(tmp_path / "web-instance"),
            "SECRET_KEY": "test-only",
        }
    )


@pytest.fixture
def check_client(check_app):
    return check_app.test_client()


def form_token(client) -> str:
    """The CSRF token of the client's session, read from the upload form."""
    page = html(client.get("/check"))
    return page.xpath("//form[@class='check']//input[@name='csrf_token']/@value")[0]


def upload(client, save: bytes | None, *, name: str = "crowded.xml", token: str | None = "fetch", **parts):
    """POST /check with a save (and any other parts), with the form's token unless told otherwise."""
    import io

    data: dict = {}
    if token == "fetch":
        token = form_token(client)
    if token is not None:
        data["csrf_token"] = token
    if save is not None:
        data["save"] = (io.BytesIO(save), name)
    for key, value in parts.items():
        data[key] = (io.BytesIO(value[0]), value[1]) if isinstance(value, tuple) else value
    return client.post("/check", data=data, content_type="multipart/form-data")


def api_upload(client, save: bytes | None, *, name: str = "crowded.xml", headers=None, **parts):
    import io

    data: dict = {}
    if save is not None:
        data["save"] = (io.BytesIO(save), name)
    for key, value in parts.items():
        data[key] = (io.BytesIO(value[0]), value[1]) if isinstance(value, tuple) else value
    return client.post("/api/check", data=data, content_type="multipart/form-data", headers=headers or {})


def report_id_of(response) -> str:
    location = response.headers["Location"]
    assert location.startswith("/reports/"), location
    return location.removeprefix("/reports/")

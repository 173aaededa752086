"""Fixtures for the page tests: invented games, a hand-built rulebook, an app.

The rulebook text below is invented for these tests (a made-up game about
tokens in an orchard); it is not taken from any real rulebook.  Three games
replace the registry: "alpha" has that rulebook imported, "beta" has only a
case index, and "gamma" has neither (its index file is missing).
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import lxml.html
import pytest

from validator import games, store
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


def _index_file(folder: Path, name: str, entries: dict[str, str]) -> Path:
    path = folder / f"{name}.toml"
    lines = ["[cases]", *(f'"{number}" = "{title}"' for number, title in entries.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _orchard_rules() -> RuleSet:
    rules = RuleSet("alpha")

    @rules.case("2.2")
    def overstacked_space(position):
        """No space may hold more than two tokens."""
        yield from ()

    @rules.case("2.13A", severity="warning")
    def token_past_stream(position):
        """A token that reached a stream must stop there."""
        yield from ()

    return rules


def _beta_rules() -> RuleSet:
    rules = RuleSet("beta")

    @rules.case("1.2")
    def reserve_too_large(position):
        """The reserve may hold at most four tokens."""
        yield from ()

    return rules


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
            case_index_path=_index_file(
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
            case_index_path=_index_file(
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
            case_index_path=folder / "missing.toml",
            rules=RuleSet("gamma"),
        ),
    }
    monkeypatch.setattr(games, "registry", lambda: registry)
    return registry


@pytest.fixture
def database_path(tmp_path) -> Path:
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
def app(test_games, book, database_path):
    return create_app({"TESTING": True, "DATABASE": str(database_path), "SECRET_KEY": "test-only"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def real_client(tmp_path):
    """The app with the real game registry and an empty database."""
    database = tmp_path / "empty.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "test-only"})
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

"""Personal data a VASSAL save carries (an e-mail address, a player's name) appears on no page and in no JSON."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import lxml.html
import pytest

from validator import privacy
from validator.web import create_app

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "vassal"))  # the VASSAL tests' helpers are plain modules there
sys.path.insert(0, str(ROOT / "examples" / "vassal"))

from modules import tito_game, tito_module  # noqa: E402

from sample_modules import _tito_state  # noqa: E402
from vassal_save_writer import command  # noqa: E402

ADDRESS = "anna.example@mail.example.org"
PLAYER_NAME = "Annabel Exampleton"
SAVE_DATA = (f"<?xml version='1.0' encoding='UTF-8'?><data version='1'><version>1.0</version>"
             f"<VassalVersion>3.7.0</VassalVersion><name>Tito</name>"
             f"<description>Axis turn 4, questions to {ADDRESS}</description></data>").encode()


@pytest.fixture
def files(tmp_path):
    """The overstacked Tito example as a .vlog whose metadata, roster, chat and a property carry the address."""
    pieces, properties = _tito_state(ROOT / "examples" / "tito" / "overstacked.xml")
    steps = (command(f"PLAYER\tsecret-password\t{PLAYER_NAME}\tAxis"), command(f"LOG\tCHATmail me: <{ADDRESS}>"))
    save = tito_game(tmp_path / "personal.vlog", pieces, {**properties, "Contact": f"mailto:{ADDRESS}"},
                     steps=steps)
    with zipfile.ZipFile(save, "a") as archive:
        archive.writestr("savedata", SAVE_DATA)
    return tito_module(tmp_path), save


def referee(*arguments) -> str:
    done = subprocess.run([sys.executable, "-m", "validator.cli", *map(str, arguments)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout + done.stderr


def assert_nothing_personal(text: str) -> None:
    assert ADDRESS not in text and "mail.example.org" not in text and PLAYER_NAME not in text
    assert "secret-password" not in text


def test_the_file_really_carries_the_address(files):
    _, save = files
    with zipfile.ZipFile(save) as archive:
        assert ADDRESS.encode() in archive.read("savedata")


def test_the_dump_shows_sides_and_withholds_the_address(files):
    module, save = files
    for options in ((), ("--steps",), ("--format", "json"), ("--steps", "--format", "json")):
        shown = referee("vassal", "dump", save, "--module", module, *options)
        assert_nothing_personal(shown)
    dumped = json.loads(referee("vassal", "dump", save, "--module", module, "--format", "json"))
    assert dumped["players"] == [{"side": "Axis"}]
    assert dumped["global_properties"]["Contact"] == privacy.WITHHELD
    assert dumped["metadata"]["save"]["description"] == f"Axis turn 4, questions to {privacy.WITHHELD}"
    steps = [json.loads(line) for line in
             referee("vassal", "dump", save, "--module", module, "--steps", "--format", "json").splitlines()]
    assert steps[-1]["chat"] == [f"mail me: <{privacy.WITHHELD}>"]


def test_the_check_json_and_text_withhold_the_address(files):
    module, save = files
    for options in ((), ("--format", "json")):
        assert_nothing_personal(referee("check", save, "--module", module, "--game", "tito", "--final", *options))


def test_the_web_page_and_json_withhold_the_address(files, tmp_path):
    module, save = files
    app = create_app({"TESTING": True, "INSTANCE": str(tmp_path / "web"), "SECRET_KEY": "test-only"})
    client = app.test_client()
    token = lxml.html.fromstring(client.get("/check").data).xpath("//input[@name='csrf_token']/@value")[0]
    answer = client.post("/check", content_type="multipart/form-data", data={
        "csrf_token": token, "game": "tito", "save": (io.BytesIO(save.read_bytes()), "personal.vlog"),
        "module": (io.BytesIO(module.read_bytes()), "tito-sample.vmod")})
    assert answer.status_code == 303, answer.data[:500]
    page = client.get(answer.headers["Location"])
    assert page.status_code == 200
    assert_nothing_personal(page.data.decode())
    assert_nothing_personal(client.get(answer.headers["Location"] + ".json").data.decode())


@pytest.mark.parametrize(("text", "shown"), [
    ("write to anna@example.org today", f"write to {privacy.WITHHELD} today"),
    ("<mailto:anna@example.org>", f"<{privacy.WITHHELD}>"),
    ("an @ sign and user@localhost stay", "an @ sign and user@localhost stay"),
    ("no address here", "no address here"),
])
def test_an_address_is_withheld_word_by_word(text, shown):
    assert privacy.without_addresses(text) == shown


def test_a_long_text_without_separators_is_scanned_once():
    text = "a" * 200_000 + "@" + "b" * 200_000
    assert privacy.without_addresses(text) == text

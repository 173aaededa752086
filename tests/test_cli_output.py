"""What the command line writes, run as a real process: closed pipes, consoles that are not UTF-8, odd file names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OVERSTACKED = ROOT / "examples" / "tito" / "overstacked.xml"
TITO_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"
VASSAL_SAVE = ROOT / "examples" / "vassal" / "tito-opening.vsav"
VASSAL_MODULE = ROOT / "examples" / "vassal" / "tito-sample.vmod"
REFEREE = [sys.executable, "-m", "validator.cli"]
BROKEN_PIPE = 141
UNDECODABLE = os.fsdecode(b"\xff")  # a file-name byte that is not UTF-8, as Python holds it


def referee(*arguments, stdout=subprocess.PIPE, **environment) -> subprocess.CompletedProcess:
    """Run ``python -m validator.cli ARGS...`` with the test's instance folder; output as bytes."""
    env = dict(os.environ, **environment)
    return subprocess.run([*REFEREE, *map(str, arguments)], stdout=stdout, stderr=subprocess.PIPE, env=env,
                          cwd=ROOT, timeout=120)


def into_closed_pipe(*arguments) -> subprocess.CompletedProcess:
    """Run referee with its standard output a pipe whose reading end is already closed."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        return referee(*arguments, stdout=writing)
    finally:
        os.close(writing)


def save_named(folder: Path, name: str) -> Path:
    """The overstacked Tito example under another name, its map reference made absolute."""
    text = OVERSTACKED.read_text(encoding="utf-8").replace('href="../../plugin/tito/maps/tito-map.xml"',
                                                           f'href="{TITO_MAP.as_uri()}"')
    assert TITO_MAP.as_uri() in text
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def strings_in(data) -> list[str]:
    if isinstance(data, dict):
        return [text for key, value in data.items() for text in [key, *strings_in(value)]]
    if isinstance(data, list):
        return [text for value in data for text in strings_in(value)]
    return [data] if isinstance(data, str) else []


# -- a closed pipe --------------------------------------------------------------------


@pytest.mark.parametrize("arguments", [
    ("rules", "list", "tito"),
    ("rules", "list", "tito", "--format", "json"),
    ("rules", "checks", "tito"),
    ("check", OVERSTACKED),
    ("check", OVERSTACKED, "--format", "json"),
    ("vassal", "dump", VASSAL_SAVE),
    ("vassal", "dump", VASSAL_SAVE, "--format", "json"),
    ("export", VASSAL_SAVE, "--module", VASSAL_MODULE, "--game", "tito"),
])
def test_output_into_a_closed_pipe_ends_quietly_with_the_broken_pipe_status(arguments):
    finished = into_closed_pipe(*arguments)
    assert finished.returncode == BROKEN_PIPE
    errors = finished.stderr.decode("utf-8")
    assert "Traceback" not in errors and "Exception ignored" not in errors and "BrokenPipe" not in errors


VASSAL_LOG = ROOT / "examples" / "vassal" / "tito-opening-moves.vlog"


@pytest.mark.rulebooks
def test_every_other_command_into_a_closed_pipe_ends_quietly_too(import_real):
    import_real("tito")
    for arguments in [
        ("rules", "show", "tito", "6.21"),
        ("rules", "show", "tito", "6.21", "--format", "json"),
        ("rules", "refs", "tito"),
        ("rules", "coverage", "tito"),
        ("rules", "coverage", "tito", "--format", "json"),
        ("info",),
        ("info", "--format", "json"),
        ("vassal", "dump", VASSAL_LOG, "--module", VASSAL_MODULE, "--steps"),
        ("vassal", "dump", VASSAL_LOG, "--module", VASSAL_MODULE, "--steps", "--format", "json"),
    ]:
        finished = into_closed_pipe(*arguments)
        errors = finished.stderr.decode("utf-8")
        assert finished.returncode == BROKEN_PIPE, (arguments, errors)
        assert "Traceback" not in errors and "Exception ignored" not in errors and "BrokenPipe" not in errors


def test_head_of_a_listing_reads_the_first_line_and_nothing_goes_wrong():
    listing = subprocess.Popen([*REFEREE, "rules", "list", "tito"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT)
    head = subprocess.run(["head", "-1"], stdin=listing.stdout, stdout=subprocess.PIPE, timeout=120)
    listing.stdout.close()
    errors = listing.stderr.read().decode("utf-8")
    listing.stderr.close()
    status = listing.wait(timeout=120)
    full = referee("rules", "list", "tito").stdout
    assert head.stdout == full.splitlines(keepends=True)[0]
    assert status in (0, BROKEN_PIPE)  # 0 when the listing was all written before head closed the pipe
    assert errors == "The tito rulebook is not imported yet; listing the plugin's case index.\n"


# -- a console that is not UTF-8 ----------------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_text_on_a_console_that_cannot_show_a_file_name_escapes_it(tmp_path, encoding):
    save = save_named(tmp_path, "\u010ca\u010dak.xml")  # letters neither ascii nor cp1252 holds
    on_utf8 = referee("check", save, PYTHONIOENCODING="utf-8")
    narrow = referee("check", save, PYTHONIOENCODING=encoding)
    assert narrow.returncode == on_utf8.returncode == 1
    expected = on_utf8.stdout.decode("utf-8").encode(encoding, "backslashreplace")
    assert narrow.stdout == expected
    assert b"\\u010ca\\u010dak.xml: " in narrow.stdout


def test_an_error_naming_a_file_the_console_cannot_show_is_escaped_too(tmp_path):
    finished = referee("check", tmp_path / "\u010ca\u010dak.xml", PYTHONIOENCODING="ascii")
    assert finished.returncode == 2
    assert b"\\u010ca\\u010dak.xml: " in finished.stderr and b"Traceback" not in finished.stderr


def test_rulebook_text_on_an_ascii_console_under_the_c_locale(tmp_path):
    text = tmp_path / "pond.txt"
    text.write_text("3. PONDS\n3.1 Frogs \u2014 the green ones \u2014 sit on pads.\n", encoding="utf-8")
    c_locale = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    assert referee("rules", "import", "tww", text, "--no-fixups", "--force", **c_locale).returncode == 0
    shown = referee("rules", "show", "tww", "3.1", **c_locale)
    assert shown.returncode == 0 and b"Traceback" not in shown.stderr
    assert b"Frogs \\u2014 the green ones \\u2014 sit on pads." in shown.stdout
    as_json = referee("rules", "show", "tww", "3.1", "--format", "json", **c_locale)
    assert "Frogs \u2014 the green ones" in json.dumps(json.loads(as_json.stdout.decode("utf-8")), ensure_ascii=False)


# -- file names that are not UTF-8 --------------------------------------------------------


def test_json_report_of_a_save_whose_name_is_not_utf8_is_valid_utf8_with_a_replacement(tmp_path):
    save = save_named(tmp_path, f"{UNDECODABLE}save.xml")
    finished = referee("check", save, "--format", "json")
    assert finished.returncode == 1
    report = json.loads(finished.stdout.decode("utf-8"))
    assert report["source"].endswith("\ufffdsave.xml")
    for text in strings_in(report):
        text.encode("utf-8")  # no lone surrogate anywhere
    text = referee("check", save)
    assert "\ufffdsave.xml: " in text.stdout.decode("utf-8")


def test_vassal_dump_of_a_file_whose_name_is_not_utf8(tmp_path):
    save = tmp_path / f"{UNDECODABLE}game.vsav"
    save.write_bytes(VASSAL_SAVE.read_bytes())
    finished = referee("vassal", "dump", save, "--format", "json")
    assert finished.returncode == 0
    assert json.loads(finished.stdout.decode("utf-8"))["source"] == "\ufffdgame.vsav"
    assert referee("vassal", "dump", save).stdout.decode("utf-8").startswith("\ufffdgame.vsav: ")


def test_a_rulebook_file_whose_name_is_not_utf8_is_imported_and_named_with_a_replacement(tmp_path):
    text = tmp_path / f"{UNDECODABLE}pond.txt"
    text.write_text("3. PONDS\n3.1 Frogs sit on pads.\n", encoding="utf-8")
    imported = referee("rules", "import", "tww", text, "--no-fixups", "--force", "--format", "json")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout.decode("utf-8"))["sources"] == ["\ufffdpond.txt"]
    assert "\ufffdpond.txt" in referee("rules", "import", "tww", text, "--no-fixups", "--force").stdout.decode("utf-8")


def test_an_error_about_a_file_whose_name_is_not_utf8_is_valid_utf8(tmp_path):
    finished = referee("check", tmp_path / f"{UNDECODABLE}absent.xml")
    assert finished.returncode == 2
    assert "\ufffdabsent.xml: " in finished.stderr.decode("utf-8")

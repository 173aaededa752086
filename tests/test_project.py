"""The project as a whole: packaging, the README's commands, no rulebook text."""

import configparser
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from .readme_tour import read_tour

ROOT = Path(__file__).resolve().parent.parent


def setup_cfg():
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg")
    return parser


def test_package_list_covers_every_python_folder():
    listed = set(setup_cfg()["options"]["packages"].split())
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("validator", "plugin")
        for path in (ROOT / top).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert found | {"referee_templates", "referee_schemas"} == listed


def test_ci_runs_the_readme_test_command():
    """The README's test command is not run by the README test (it runs that test): .ci/run runs it, word for word."""
    command = read_tour((ROOT / "README.md").read_text(encoding="utf-8")).test_command
    assert command, "the README marks its test command with <!-- test-command -->"
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_wheel_ships_templates_static_files_and_plugin_data(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True,
    )
    (wheel,) = tmp_path.glob("referee-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "referee_templates/base.html",
        "referee_templates/rules/case.html",
        "validator/web/static/referee.css",
        "plugin/tito/cases.toml",
        "plugin/tww/fixups.toml",
        "plugin/tito/maps/tito-map.xml",
        "referee_schemas/save.xsd",
        "validator/rulebook/parser.py",
    ):
        assert required in names


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def test_the_project_carries_no_rulebook_text(rulebooks_dir):
    """No run of ten words from a rulebook appears in any tracked or new file."""
    size = 10
    shingles = set()
    for book in rulebooks_dir.glob("*.txt"):
        found = words(book.read_text(encoding="utf-8"))
        shingles.update(" ".join(found[index : index + size]) for index in range(len(found) - size + 1))
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split("\n")
    offenders = []
    for name in filter(None, listed):
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        try:
            found = words(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            continue
        if any(" ".join(found[index : index + size]) in shingles for index in range(len(found) - size + 1)):
            offenders.append(name)
    assert offenders == []

"""Reading is not checking: the readers in validator/saves/ and the intake never reach the runner or the report.

Two views of the same rule.  The source view reads every module's import
statements (relative ones resolved), so a reader that names the runner is
caught even inside a function.  The import view imports every reader and the
intake in a fresh interpreter and looks at what came in with them, so a
reader that reaches the runner through another module is caught too.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAVES = ROOT / "validator" / "saves"
READING = [*sorted(SAVES.rglob("*.py")), ROOT / "validator" / "intake.py"]
CHECKING = ("validator.runner", "validator.report")
NOT_CORE = ("validator.web", "validator.cli", "flask", "plugin")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> set[str]:
    """Every module an import statement of ``path`` names, relative ones made absolute."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def reaches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_the_source_view_sees_relative_and_absolute_imports():
    names = imported_names(SAVES / "vassal" / "positions.py")
    assert "validator.saves.vassal.translation" in names and "validator.saves.xml_reader" in names
    assert reaches("validator.runner.check", CHECKING) and not reaches("validator.runners", CHECKING)


def test_no_reader_nor_the_intake_imports_the_runner_or_the_report():
    offenders = {module_name(path): sorted(name for name in imported_names(path) if reaches(name, CHECKING))
                 for path in READING}
    assert {module: names for module, names in offenders.items() if names} == {}
    assert len(READING) > 30  # every reader was looked at, the VASSAL package's included


def test_no_reader_nor_the_intake_imports_the_web_app_the_command_line_or_a_game():
    offenders = {module_name(path): sorted(name for name in imported_names(path) if reaches(name, NOT_CORE))
                 for path in READING}
    assert {module: names for module, names in offenders.items() if names} == {}


def test_importing_every_reader_and_the_intake_brings_in_neither_the_runner_nor_the_report():
    modules = [module_name(path) for path in READING]
    program = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    assert set(modules) <= set(loaded)
    assert [name for name in loaded if reaches(name, CHECKING + NOT_CORE)] == []

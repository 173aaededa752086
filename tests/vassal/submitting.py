"""Test helper: a VASSAL save checked or exported through the one intake, as ``referee check`` and ``export`` do."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from validator import runner
from validator.intake import Submission, export_submission, read_submission
from validator.report import Report


def check_file(save: Path, module: Path, game: str, mapping: Path | None = None, *, viewer: str | None = None,
               arbiter: bool = False, notes: Callable[[str], None] | None = None) -> Report:
    """The report on the save as ``viewer`` sees it; ``notes`` is given the sentence saying what was skipped."""
    reading = read_submission(Submission(save, game=game, module=module, mapping=mapping, viewer=viewer,
                                         arbiter=arbiter))
    if notes is not None:
        notes(f"{save}: {reading.note}")
    return runner.check(reading.position)


def export_file(save: Path, module: Path, game: str, mapping: Path | None = None, *, viewer: str | None = None,
                arbiter: bool = False, relative_to: Path | None = None,
                notes: Callable[[str], None] | None = None) -> bytes:
    """The save exported as our save XML, its map href relative to ``relative_to`` (else absolute)."""
    exported = export_submission(Submission(save, game=game, module=module, mapping=mapping, viewer=viewer,
                                            arbiter=arbiter), relative_to)
    if notes is not None:
        notes(f"{save}: {exported.note}")
    return exported.xml

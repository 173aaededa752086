"""The real module build files and saves of ../shared/vassal-corpus/ (see its README), for the tests that read them.

Skipped with the reason when the folder is absent, a failure under CI: the
corpus is part of the test inputs there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "vassal-corpus"


def corpus_file(*parts: str) -> Path:
    """A file of the corpus; skips (or fails under CI) when it is not there."""
    path = CORPUS.joinpath(*parts)
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"the VASSAL corpus file {path} is missing under CI")
        pytest.skip(f"the VASSAL corpus file {path} is not present")
    return path

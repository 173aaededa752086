"""Fixtures for the VASSAL reader tests: the shared real sample files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "vassal-samples"


@pytest.fixture
def samples() -> Path:
    """The folder of real VASSAL files; skipped locally when absent, a failure under CI."""
    if not SAMPLES.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the VASSAL samples folder {SAMPLES} is missing under CI")
        pytest.skip(f"the VASSAL samples folder {SAMPLES} is not present")
    return SAMPLES

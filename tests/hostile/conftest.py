"""The hostile corpus: every input here is built by the test that reads it."""

from __future__ import annotations

WEB_PEAK_MB = 300
"""The peak memory a refused or accepted hostile input may cost the reading process, interpreter included."""

LINEAR_BOUND = 20
"""Most a cost may grow when the input grows 8 times: linear gives about 8, quadratic 64."""

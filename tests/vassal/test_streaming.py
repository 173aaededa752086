"""``referee vassal dump`` on long logs: memory follows the position, not the length of the log.

Each figure is the peak resident memory (VmHWM) of a fresh interpreter that
runs the command with its output thrown away, on one log written at two
lengths: n steps and 8n steps of the same 24 pieces.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from long_log import write_long_log

ROOT = Path(__file__).resolve().parents[2]

_CHILD = r"""
import json, os, sys
from validator.cli import main
sys.stdout = open(os.devnull, "w", encoding="utf-8")
code = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
sys.stderr.write(json.dumps({"code": code, "peak_mb": peak}))
"""


def _peak_mb(*arguments: str) -> float:
    completed = subprocess.run([sys.executable, "-c", _CHILD, *arguments], capture_output=True, text=True,
                               cwd=ROOT, timeout=600)
    outcome = json.loads(completed.stderr.strip().splitlines()[-1])
    assert outcome["code"] == 0, completed.stderr[-2000:]
    return outcome["peak_mb"]


def test_steps_stream_in_memory_the_size_of_the_position(tmp_path):
    short, long = tmp_path / "short.vlog", tmp_path / "long.vlog"
    short_text = write_long_log(short, 2_000)
    long_text = write_long_log(long, 16_000)
    short_peak = _peak_mb("vassal", "dump", str(short), "--steps", "--format", "json")
    long_peak = _peak_mb("vassal", "dump", str(long), "--steps", "--format", "json")
    grown_text_mb = (long_text - short_text) / 1_000_000
    # Eight times the steps, the same position: the peak grows by a small part of the text it read.
    assert long_peak - short_peak < grown_text_mb / 4, (short_peak, long_peak, grown_text_mb)


def test_a_plain_dump_of_a_long_log_takes_less_memory_than_its_command_text(tmp_path):
    log = tmp_path / "long.vlog"
    text_mb = write_long_log(log, 40_000) / 1_000_000
    peak = _peak_mb("vassal", "dump", str(log), "--format", "json")
    assert peak < text_mb, (peak, text_mb)


def test_the_stream_is_one_json_object_per_line_and_adds_up_to_the_final_position(tmp_path):
    log = tmp_path / "short.vlog"
    write_long_log(log, 50)
    completed = subprocess.run([sys.executable, "-m", "validator.cli", "vassal", "dump", str(log), "--steps",
                                "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    header, *steps = [json.loads(line) for line in completed.stdout.splitlines()]
    assert header["position"] == "initial" and "notes" in header and [s["index"] for s in steps] == list(range(1, 51))
    pieces = {entry["id"]: entry for entry in header["pieces"]}
    for step in steps:
        for entry in step["changes"]["added"] + step["changes"]["changed"]:
            pieces[entry["id"]] = entry
        for piece_id in step["changes"]["removed"]:
            del pieces[piece_id]
    final = subprocess.run([sys.executable, "-m", "validator.cli", "vassal", "dump", str(log), "--format", "json"],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert {entry["id"]: entry for entry in json.loads(final.stdout)["pieces"]} == pieces

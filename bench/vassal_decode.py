"""Benchmark: decoding real VASSAL saves, and the memory of ``vassal dump`` on a long log (not part of the tests).

For each real save in ``../shared/vassal-samples/`` and ``../shared/vassal-corpus/``,
and for a save made of ten copies of the largest one (its commands ten times
over: the same pieces added again, so every type string repeats), it times

* **reader**: a full decode, ``read_saved_game``: every piece with its map,
  position, stack, name and properties (the figures the mapping uses);
* **baseline**: a stdlib-only pass that only inflates the ``savedGame`` entry
  and removes its obfuscation to UTF-8 text, the floor any reader pays;
* **steps**: ``vassal dump --steps``'s stream consumed whole (for a save, its
  one header object: the position as a viewer sees it).

Rates are MB of command text per second of CPU time (``time.process_time``,
best of a few runs), which other processes on the machine disturb less than
wall time.  Then it writes a generated log of 2,000 and of 16,000 steps and
measures, in fresh interpreters, the peak resident memory (VmHWM) of
``vassal dump`` and ``vassal dump --steps`` on each.

Run: ``PYTHONPATH=.:examples/vassal python bench/vassal_decode.py [--json] [--quick] [--profile]``.
``--profile`` prints, instead, where the reader's CPU time goes: a profile
(CPU clock) of the full decode of every real save, by own time.
From Python: ``figures(quick=False) -> dict`` (the same data as ``--json``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FOLDERS = (SHARED / "vassal-samples", SHARED / "vassal-corpus")
TARGET_MB_S = 50.0
COPIES = 10

sys.path[:0] = [str(ROOT), str(ROOT / "examples" / "vassal")]

from long_log import write_long_log, write_text_save  # noqa: E402

from validator.limits import MIB, Limits  # noqa: E402
from validator.saves.vassal.dump import iter_dump  # noqa: E402
from validator.saves.vassal.reader import read_saved_game  # noqa: E402

LIMITS = Limits(entry_bytes=1024 * MIB, text_bytes=1024 * MIB)
"""Room for the ten-copies save (about 280 MB of hex in its entry)."""

_PEAK_CHILD = r"""
import json, os, sys
from validator.cli import main
sys.stdout = open(os.devnull, "w", encoding="utf-8")
code = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
sys.stderr.write(json.dumps({"code": code, "peak_mb": peak}))
"""


def baseline_text(path: Path) -> str:
    """Only the standard library: inflate ``savedGame`` and undo its VCSK, VOBS or no obfuscation."""
    with zipfile.ZipFile(path) as archive:
        data = archive.read("savedGame")
    if data.startswith(b"!VCSK"):
        key = int(data[5:7], 16)
        data = bytes.fromhex(data[7:].decode("ascii")).translate(bytes(value ^ key for value in range(256)))
    elif data.startswith(b"!VOBS"):
        data = data[6:].translate(bytes(value ^ data[5] for value in range(256)))
    return data.decode("utf-8", "replace")


def _cpu(action, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        action()
        best = min(best, time.process_time() - started)
    return max(best, 1e-6)


def _consume_steps(path: Path) -> None:
    for _ in iter_dump(path, limits=LIMITS):
        pass


def _row(name: str, path: Path, runs: int) -> dict:
    text_mb = len(baseline_text(path).encode("utf-8")) / 1_000_000
    game = read_saved_game(path, limits=LIMITS)
    reader = _cpu(lambda: read_saved_game(path, limits=LIMITS), runs)
    baseline = _cpu(lambda: baseline_text(path), runs)
    steps = _cpu(lambda: _consume_steps(path), runs)
    return {"file": name, "text_mb": round(text_mb, 2), "pieces": len(game.pieces),
            "reader_mb_s": round(text_mb / reader, 1), "baseline_mb_s": round(text_mb / baseline, 1),
            "steps_mb_s": round(text_mb / steps, 1)}


def real_saves() -> list[Path]:
    return sorted(path for folder in FOLDERS if folder.is_dir() for path in folder.rglob("*")
                  if path.suffix in (".vsav", ".vlog"))


def _peak_mb(*arguments: str) -> float:
    completed = subprocess.run([sys.executable, "-c", _PEAK_CHILD, *arguments], capture_output=True, text=True,
                               cwd=ROOT, timeout=900)
    outcome = json.loads(completed.stderr.strip().splitlines()[-1])
    if outcome["code"] != 0:
        raise RuntimeError(f"vassal dump failed: {completed.stderr[-1000:]}")
    return round(outcome["peak_mb"], 1)


def figures(quick: bool = False) -> dict:
    """Every figure of the bench: decode rates per file, and the dump's peak memory on a short and a long log."""
    runs = 1 if quick else 3
    rows = []
    saves = real_saves()
    with tempfile.TemporaryDirectory() as folder:
        for path in saves:
            rows.append(_row(path.name, path, runs))
        if saves:
            largest = max(saves, key=lambda path: path.stat().st_size)
            copies = Path(folder) / f"ten-copies-{largest.stem}.vsav"
            write_text_save(copies, "\x1b".join([baseline_text(largest)] * COPIES))
            rows.append(_row(copies.name, copies, 1))
        memory = []
        for steps in ((500, 4_000) if quick else (2_000, 16_000)):
            log = Path(folder) / f"long-{steps}.vlog"
            text_mb = write_long_log(log, steps) / 1_000_000
            memory.append({"steps": steps, "text_mb": round(text_mb, 1),
                           "dump_peak_mb": _peak_mb("vassal", "dump", str(log), "--format", "json"),
                           "steps_peak_mb": _peak_mb("vassal", "dump", str(log), "--steps", "--format", "json")})
    real = [row for row in rows if not row["file"].startswith("ten-copies")]
    total_mb = sum(row["text_mb"] for row in real)
    overall = {key: round(total_mb / sum(row["text_mb"] / row[key] for row in real), 1) if real else None
               for key in ("reader_mb_s", "baseline_mb_s", "steps_mb_s")}
    return {"target_mb_s": TARGET_MB_S, "cpu_time": True, "files": rows, "real_saves_overall": overall,
            "memory": memory}


def _table(data: dict) -> str:
    lines = [f"{'file':44} {'text MB':>8} {'pieces':>7} {'reader MB/s':>12} {'baseline MB/s':>14} "
             f"{'--steps MB/s':>13}"]
    for row in data["files"]:
        lines.append(f"{row['file'][:44]:44} {row['text_mb']:8.2f} {row['pieces']:7} {row['reader_mb_s']:12.1f} "
                     f"{row['baseline_mb_s']:14.1f} {row['steps_mb_s']:13.1f}")
    overall = data["real_saves_overall"]
    if overall["reader_mb_s"] is not None:
        lines.append(f"{'all real saves together':44} {'':8} {'':7} {overall['reader_mb_s']:12.1f} "
                     f"{overall['baseline_mb_s']:14.1f} {overall['steps_mb_s']:13.1f}")
    lines.append(f"(MB of command text per CPU second; target for the reader: at least {data['target_mb_s']:.0f})")
    lines.append("")
    lines.append(f"{'generated log':24} {'text MB':>8} {'dump peak MB':>13} {'--steps peak MB':>16}")
    for row in data["memory"]:
        lines.append(f"{row['steps']:>7,} steps{'':12} {row['text_mb']:8.1f} {row['dump_peak_mb']:13.1f} "
                     f"{row['steps_peak_mb']:16.1f}")
    lines.append("(peak resident memory of a fresh interpreter, imports included)")
    return "\n".join(lines)


def profile(lines: int = 30) -> str:
    """The reader's own-time profile over a full decode of every real save, measured on the CPU clock."""
    profiler = cProfile.Profile(time.process_time)
    for path in real_saves():
        profiler.runcall(read_saved_game, path, limits=LIMITS)
    report = io.StringIO()
    pstats.Stats(profiler, stream=report).sort_stats("tottime").print_stats(lines)
    return report.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="one run per file and shorter logs")
    parser.add_argument("--profile", action="store_true", help="print where the reader's time goes instead")
    arguments = parser.parse_args()
    if arguments.profile:
        print(profile())
        return 0
    data = figures(quick=arguments.quick)
    print(json.dumps(data, indent=2) if arguments.json else _table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every command's output comes in a fixed order: the same under any string-hash seed.

Python salts the hashes of strings per process (PYTHONHASHSEED), so output
built by walking a set would change from run to run.  Each command is run in
processes with different seeds and the outputs must be identical.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.rulebook.samples import DOTTED

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
VASSAL = EXAMPLES / "vassal"
SEEDS = ("1", "2")
SEPARATOR = "\n=== referee"

# Runs each command line given on its standard input (one per line, words separated by tabs) in-process.
DRIVER = f"""
import sys
from validator import cli
sys.stderr = sys.stdout
for line in sys.stdin.read().splitlines():
    arguments = line.split("\\t")
    print({SEPARATOR!r}, *arguments, flush=True)
    print("exit", cli.main(arguments), flush=True)
"""


def commands(tmp_path: Path) -> list[list[str]]:
    checks = [["check", str(path), *format_] for path in sorted(EXAMPLES.glob("*/*.xml"))
              for format_ in ([], ["--format", "json"])]
    rules = [["rules", command, game, *format_] for command in ("list", "refs", "checks")
             for game in ("tito", "awaw", "tww") for format_ in ([], ["--format", "json"])]
    vassal = [["vassal", "dump", str(VASSAL / "tito-opening-moves.vlog"), "--module", str(VASSAL / "tito-sample.vmod"),
               "--steps", *format_] for format_ in ([], ["--format", "json"])]
    exports = [["export", str(VASSAL / "tito-overstacked.vsav"), "--module", str(VASSAL / "tito-sample.vmod"),
                "--game", "tito"]]
    return [*checks, *rules, ["rules", "show", "tww", "7"], *vassal, *exports, ["info"], ["info", "--format", "json"],
            ["games", "list"], ["games", "list", "--format", "json"]]


def test_every_command_prints_the_same_under_every_hash_seed(run_cli, tmp_path):
    text = tmp_path / "pond.txt"
    text.write_text(DOTTED, encoding="utf-8")
    assert run_cli("rules", "import", "tww", text, "--no-fixups", "--force")[0] == 0
    script = "\n".join("\t".join(command) for command in commands(tmp_path))
    outputs = []
    for seed in SEEDS:
        finished = subprocess.run([sys.executable, "-c", DRIVER], input=script.encode("utf-8"), capture_output=True,
                                  env=dict(os.environ, PYTHONHASHSEED=seed), cwd=ROOT, timeout=300)
        assert finished.returncode == 0, finished.stderr.decode("utf-8")
        outputs.append(finished.stdout.decode("utf-8"))
    first = outputs[0].split(SEPARATOR)
    assert len(first) == len(commands(tmp_path)) + 1
    for seed, output in zip(SEEDS[1:], outputs[1:], strict=True):
        for expected, got in zip(first, output.split(SEPARATOR), strict=True):
            assert got == expected, f"PYTHONHASHSEED={seed} changed the output of referee{expected.splitlines()[0]}"

"""What reading one hostile file costs, measured in a fresh subprocess.

The child process reads the file once and reports the CPU time of the read
alone (``time.process_time``, imports excluded), its own peak resident memory
(``VmHWM``, not ``ru_maxrss``, which starts from the parent's size) and the
outcome: the sentence of the input error it refused the file with, or a
summary of what it read.  Any other exception is
reported as such, so a test can say "no traceback".  The timeout is only a
guard against a hang; no test compares it with anything.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD_SECONDS = 180
"""Wall-clock seconds a child may run before it counts as hung.  Only a guard against a hang, never a
measure: the slowest child takes some 16 s alone, and several times that when the tests run two at a time
beside other work on a 2-core machine (a 30 s guard once stopped a sound read that way)."""
MEMORY_GUARD_MB = 3072
"""Address space the child may take, so that a memory bomb fails in the child rather than on the machine."""

_CHILD = r'''
import json, resource, sys, time
operation, path, limits, argument = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
from validator.limits import Limits
from validator.saves.errors import SaveInputError
from validator.saves.vassal.errors import VassalFormatError
from validator.rulebook.importer import RulebookImportError
limits = Limits(**limits)

def peak_mb():
    # VmHWM is this process's own high-water mark; ru_maxrss would report the parent's size at the fork
    # (Linux keeps the larger across exec), so a big pytest process would seem to cost the child its memory.
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

def vassal_save():
    from validator.saves.vassal.reader import read_saved_game
    game = read_saved_game(path, limits=limits)
    return f"{len(game.pieces)} pieces, {len(game.stacks)} stacks"

def vassal_log():
    from validator.saves.vassal.reader import read_log
    log = read_log(path, limits=limits)
    return f"{len(log.restore)} restore commands, {len(log.steps)} steps"

def module_location():
    from validator.saves.vassal import location_of, read_module
    module = read_module(path, limits=limits)
    return location_of(module, "Main", *argument)

def xml_save():
    from pathlib import Path
    from validator.saves.xml_reader import read_position_file
    position = read_position_file(Path(path))
    return f"{sum(len(values) for values in position.facts.values())} fact values"

def rulebook():
    from pathlib import Path
    from validator.rulebook.importer import import_texts, read_file
    book = import_texts("tito", [read_file(Path(path))])
    return f"{len(book.cases)} cases"

def pattern():
    # argument: [module, pattern name]; every way the code may use that pattern, on each text of the folder,
    # each timed on its own
    import importlib, os
    module, name = argument
    compiled = getattr(importlib.import_module(module), name)
    times = {}
    for file in sorted(os.listdir(path)):
        with open(os.path.join(path, file), encoding="utf-8") as handle:
            text = handle.read()
        started = time.process_time()
        compiled.match(text), compiled.fullmatch(text), compiled.search(text), list(compiled.finditer(text))
        times[file] = time.process_time() - started
    return json.dumps(times)

def patterns():
    # argument: [{"key", "module" and "name" (a module's pattern) or "text" and "flags" (one written in a call),
    # "uses": the methods the code calls on it, "files": the texts of the folder to time it on}]; each pattern's
    # uses on each of its texts, timed on its own (so the figures say which pattern and which text)
    import importlib, os, re
    times = {}
    for spec in argument:
        if "text" in spec:
            compiled = re.compile(spec["text"], spec["flags"])
        else:
            compiled = getattr(importlib.import_module(spec["module"]), spec["name"])
        times[spec["key"]] = {}
        for file in spec["files"]:
            with open(os.path.join(path, file), encoding="utf-8") as handle:
                text = handle.read()
            if isinstance(compiled.pattern, bytes):
                text = text.encode("utf-8")
            started = time.process_time()
            for use in spec["uses"]:  # match, fullmatch, search, or scan (finditer, as sub, split and findall do)
                if use == "scan":
                    for _ in compiled.finditer(text):
                        pass
                else:
                    getattr(compiled, use)(text)
            times[spec["key"]][file] = time.process_time() - started
    return json.dumps(times)

def mapping_patterns():
    # argument: a mapping file; each of its patterns searched in, and matched against, each text of the folder,
    # as the export does (timed per text, over every pattern)
    import os
    from validator.saves.vassal.mapping import read_mapping
    mapping = read_mapping(argument)
    patterns = [rule.pattern for rule in mapping.matches + mapping.location_patterns]
    patterns += [found for rule in mapping.ignores for found in (rule.name_pattern, rule.pattern) if found]
    times = {}
    for file in sorted(os.listdir(path)):
        with open(os.path.join(path, file), encoding="utf-8") as handle:
            text = handle.read()
        started = time.process_time()
        for compiled in patterns:
            compiled.search(text), compiled.fullmatch(text)
        times[file] = time.process_time() - started
    return json.dumps(times)

started = time.process_time()
try:
    outcome = {"summary": globals()[operation]()}
except (VassalFormatError, SaveInputError, RulebookImportError) as error:
    outcome = {"refused": str(error)}
except BaseException as error:
    outcome = {"crashed": f"{type(error).__name__}: {error}"[:500]}
outcome["cpu"] = time.process_time() - started
outcome["peak_mb"] = peak_mb()
print(json.dumps(outcome))
'''


@dataclass(frozen=True)
class Cost:
    cpu: float
    """CPU seconds the read took in the child."""
    peak_mb: float
    """The child's own peak resident memory (VmHWM), interpreter and imports included."""
    summary: str | None = None
    refused: str | None = None
    crashed: str | None = None


def _guard_memory() -> None:
    cap = MEMORY_GUARD_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def measure(operation: str, path: Path, limits: dict | None = None, argument: object = None,
            timeout: float = HANG_GUARD_SECONDS) -> Cost:
    """Read ``path`` with ``operation`` in a fresh interpreter; what it cost and how it ended."""
    completed = subprocess.run(
        [sys.executable, "-c", _CHILD, operation, str(path), json.dumps(limits or {}), json.dumps(argument)],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, preexec_fn=_guard_memory,
    )
    if completed.returncode != 0 or not completed.stdout.strip():
        raise AssertionError(f"the measuring child failed ({completed.returncode}): {completed.stderr[-2000:]}")
    return Cost(**json.loads(completed.stdout.strip().splitlines()[-1]))


def growth(operation: str, build, tmp_path: Path, n: int, factor: int = 8, **options) -> tuple[float, Cost, Cost]:
    """The CPU cost ratio of the same hostile shape at size ``factor * n`` over size ``n``."""
    small = measure(operation, build(tmp_path / f"small-{n}", n), **options)
    large = measure(operation, build(tmp_path / f"large-{factor * n}", factor * n), **options)
    return large.cpu / max(small.cpu, 1e-3), small, large

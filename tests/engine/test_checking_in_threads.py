"""Checking under threads, as the web server does: each position gets its own verdict.

Two different positions of each game, which share one prepared map through
the reader's cache, are read and checked again and again by several threads
at once, with the interpreter switching threads as often as it can; every
verdict must be the one the same position gets when checked alone.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from validator import runner
from validator.recently_used import RecentlyUsed
from validator.saves.xml_reader import read_position_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PAIRS = {
    "tito": ("tito/opening-setup.xml", "tito/overstacked.xml"),
    "awaw": ("awaw/partisans-legal.xml", "awaw/partisans-illegal.xml"),
    "tww": ("tww/legal.xml", "tww/illegal.xml"),
}
ROUNDS = 40


def verdict(path: Path) -> tuple:
    report = runner.check(read_position_file(path))
    return tuple((result.rule, result.location, result.message) for result in report.results)


@pytest.fixture
def switching_often():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


@pytest.mark.parametrize("game_id", list(PAIRS))
def test_two_positions_checked_at_once_each_get_their_own_verdict(game_id, switching_often):
    paths = [EXAMPLES / name for name in PAIRS[game_id]]
    alone = {path: verdict(path) for path in paths}
    assert alone[paths[0]] != alone[paths[1]], "the pair must differ for the test to mean anything"
    assert read_position_file(paths[0]).map is read_position_file(paths[1]).map  # one map, shared
    work = [paths[index % 2] for index in range(ROUNDS)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        verdicts = list(pool.map(verdict, work))
    answers = enumerate(zip(work, verdicts, strict=True))
    wrong = [(path.name, index) for index, (path, found) in answers if found != alone[path]]
    assert wrong == []


def test_the_recently_used_cache_keeps_its_size_under_threads(switching_often):
    cache: RecentlyUsed[int, int] = RecentlyUsed(8)

    def use(number: int) -> int | None:
        cache.put(number % 20, number)
        return cache.get((number + 7) % 20)

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(use, range(5000)))
    assert len(cache) == 8


def test_the_recently_used_cache_forgets_the_entry_used_longest_ago():
    cache: RecentlyUsed[str, int] = RecentlyUsed(2)
    cache.put("first", 1)
    cache.put("second", 2)
    assert cache.get("first") == 1  # now the most recently used
    cache.put("third", 3)
    assert (cache.get("first"), cache.get("second"), cache.get("third")) == (1, None, 3)
    with pytest.raises(ValueError, match="a cache holds at least one entry, not 0"):
        RecentlyUsed(0)

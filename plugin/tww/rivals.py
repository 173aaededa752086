"""The rivalry table (15.4.2): the rulebook's pairs, a setting's and a save's.

The rulebook's pairs are data in ``rivalry.toml``; the text is cut off, so
the table says it is incomplete.  Two ways add pairs: a TOML file of the same
layout named by the ``REFEREE_TWW_RIVALS`` environment variable (a setting
for every save), and ``<fact name="rivals" value="NATION NATION"/>`` in a
save.  Every pair remembers where it came from, for messages.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from validator.derived import memoised
from validator.model import Position

from plugin.tww import state

TABLE_PATH = Path(__file__).resolve().parent / "rivalry.toml"
SETTING_VARIABLE = "REFEREE_TWW_RIVALS"

RULEBOOK, COMPLETED, SETTING, SAVE = "rulebook", "rulebook (name completed)", "setting", "save"


class RivalrySettingError(ValueError):
    """A rivalry file that cannot be used, and why."""


@dataclass(frozen=True)
class RivalryTable:
    """Pairs of rival nations, each with its source."""

    pairs: Mapping[frozenset[str], str]
    complete: bool

    def are_rivals(self, first: str, second: str) -> bool:
        return first != second and frozenset((first, second)) in self.pairs

    def source(self, first: str, second: str) -> str:
        return self.pairs.get(frozenset((first, second)), "")

    def nations(self) -> frozenset[str]:
        """Every nation with a rival: a unit of any other has none."""
        return frozenset().union(*self.pairs)

    def rivals_of(self, nation: str) -> set[str]:
        return {other for pair in self.pairs if nation in pair for other in pair if other != nation}


def read_table(path: Path, source: str) -> tuple[dict[frozenset[str], str], bool]:
    """The pairs of a rivalry TOML file, or :class:`RivalrySettingError` saying what is wrong."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise RivalrySettingError(f"the rivalry file {path} cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise RivalrySettingError(f"the rivalry file {path} is not valid TOML ({error})") from None
    pairs: dict[frozenset[str], str] = {}
    entries = data.get("rivalry", [])
    if not isinstance(entries, list):
        raise RivalrySettingError(f"the rivalry file {path} needs [[rivalry]] tables")
    for number, entry in enumerate(entries, start=1):
        nation, rivals = entry.get("nation"), entry.get("rivals")
        completed = set(entry.get("completed", ()))
        if not isinstance(nation, str) or not isinstance(rivals, list) or not all(isinstance(r, str) for r in rivals):
            raise RivalrySettingError(
                f"the rivalry file {path}, entry {number}, needs nation = \"ID\" and rivals = [\"ID\", ...]"
            )
        for rival in rivals:
            if rival == nation:
                raise RivalrySettingError(f"the rivalry file {path}, entry {number}, makes {nation} its own rival")
            pairs[frozenset((nation, rival))] = COMPLETED if rival in completed else source
    return pairs, bool(data.get("complete", True))


@cache
def rulebook_table() -> RivalryTable:
    """The shipped table, read the first time it is needed; immutable, so every position may share it."""
    pairs, complete = read_table(TABLE_PATH, RULEBOOK)
    return RivalryTable(MappingProxyType(pairs), complete)


def setting_pairs() -> dict[frozenset[str], str]:
    """The pairs of the file ``REFEREE_TWW_RIVALS`` names, if it names one."""
    chosen = os.environ.get(SETTING_VARIABLE, "").strip()
    if not chosen:
        return {}
    pairs, _ = read_table(Path(chosen), SETTING)
    return pairs


def save_pairs(position: Position) -> dict[frozenset[str], str]:
    pairs = {}
    for value in position.facts.get(state.RIVALS, ()):
        nations = value.split()
        pairs[frozenset(nations)] = SAVE
    return pairs


def table_for(position: Position) -> RivalryTable:
    """The rivalry pairs in force for this position: rulebook, then setting, then save; worked out once per position."""
    return memoised(position, "tww.rivalry-table", lambda: _table_in_force(position))


def _table_in_force(position: Position) -> RivalryTable:
    base = rulebook_table()
    pairs = dict(base.pairs)
    for extra in (setting_pairs(), save_pairs(position)):
        for pair, source in extra.items():
            pairs.setdefault(pair, source)
    return RivalryTable(MappingProxyType(pairs), base.complete)

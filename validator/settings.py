"""The instance's settings file: ``referee.toml`` in the instance folder, or the file ``REFEREE_SETTINGS`` names.

It is TOML (read with :mod:`tomllib`) and every part of it is optional::

    [limits]            # the command line's limits (validator.limits.CLI_LIMITS otherwise)
    pieces = 200_000
    text_bytes = "2GiB"

    [web.limits]        # the web app's limits (validator.limits.WEB_LIMITS otherwise)
    pieces = 10_000

    [storage]           # what the instance keeps (validator.web, docs/deploying.md)
    [web]               # how the web app answers (docs/deploying.md)

``[limits]`` and ``[web.limits]`` are separate on purpose: raising a limit to
read a huge save on one's own machine must not raise what a stranger's
upload may cost the site.  A file Referee cannot use is refused whole, with a
sentence naming the file, the line and the key: TOML that does not parse, a
table or key Referee does not know (the known ones are listed, so a typo is
never ignored in silence), or a value of the wrong kind.  The known keys of
each table are :data:`KNOWN_KEYS`, with the reader that checks each value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from validator import compiled_methods
from validator.errors import InputError
from validator.limits import CLI_LIMITS, NAMES, WEB_LIMITS, Limits, LimitSettingError, checked_figure, parse_figure

compiled_methods.install()  # before this module's dataclasses: the first a web app makes (see validator.games)

if TYPE_CHECKING:
    import tomllib

FILE_NAME = "referee.toml"
ENVIRONMENT_VARIABLE = "REFEREE_SETTINGS"


class SettingsError(InputError):
    """A settings file Referee cannot use: the file, the line, the key and what is wrong."""


def figure(value: object) -> int:
    """A whole number of at least 1, written as a TOML integer or as a string with a suffix ("256MiB", "20k")."""
    if isinstance(value, str):
        return parse_figure(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitSettingError(f"{_shown(value)} is not a whole number; give one such as 20000 or \"20k\"")
    if value < 1:
        raise LimitSettingError(f"{value} is less than 1, the least a limit may be")
    return value


def limit_figure(name: str) -> ValueReader:
    """The reader of one limit's figure: :func:`figure`, then that limit's floor."""
    return lambda value: checked_figure(name, figure(value))


def count(value: object) -> int:
    """A whole number of at least 0, written as a TOML integer."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitSettingError(f"{_shown(value)} is not a whole number; give one such as 0 or 1")
    if value < 0:
        raise LimitSettingError(f"{value} is less than 0; give 0 or more")
    return value


LONGEST_RETENTION_DAYS = 36_500
"""A hundred years: longer is as good as for good, and a date that far back is still one a database can hold."""


def days(value: object) -> int:
    """A whole number of days from 0 (for good) to :data:`LONGEST_RETENTION_DAYS`, written as a TOML integer."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitSettingError(f"{_shown(value)} is not a whole number of days; give one such as 365, "
                                "or 0 to keep uploads for good")
    if not 0 <= value <= LONGEST_RETENTION_DAYS:
        raise LimitSettingError(f"{value:,} days is out of range; give 0 (keep uploads for good) to "
                                f"{LONGEST_RETENTION_DAYS:,} (a hundred years)")
    return value


def text(value: object) -> str:
    """A string."""
    if not isinstance(value, str):
        raise LimitSettingError(f"{_shown(value)} is not a string; write it in double quotes")
    return value


def texts(value: object) -> tuple[str, ...]:
    """A list of strings."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise LimitSettingError(f"{_shown(value)} is not a list of strings; write one such as [\"a\", \"b\"]")
    return tuple(value)


def flag(value: object) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise LimitSettingError(f"{_shown(value)} is neither true nor false")
    return value


def _shown(value: object) -> str:
    """A value as the TOML file wrote it, near enough: true, "text", 12, [...] ."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    return repr(value) if not isinstance(value, str) else f"\"{value}\""


ValueReader = Callable[[object], object]

KNOWN_KEYS: dict[str, dict[str, ValueReader]] = {
    "limits": {name: limit_figure(name) for name in NAMES},
    "web.limits": {name: limit_figure(name) for name in NAMES},
    "storage": {"max_upload_bytes_total": figure, "max_module_bytes_total": figure,
                "orphan_grace_seconds": figure, "clean_on_start": flag,  # validator.storage, docs/deploying.md
                "retention_days": days},  # validator.retention, docs/arbitration.md
    "web": {"base_url": text, "trusted_hosts": texts,  # validator.web.addresses, docs/deploying.md
            "proxy_count": count},  # validator.web, docs/deploying.md
}
"""Every table the file may hold, and in each the keys it may set with the reader that checks the value."""


def settings_path(instance_folder: Path) -> Path:
    """The settings file in force: ``REFEREE_SETTINGS`` when set, else ``referee.toml`` in the instance folder."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    return Path(chosen).expanduser() if chosen else Path(instance_folder) / FILE_NAME


@dataclass(frozen=True)
class Settings:
    """The settings read from ``path`` (every table present, empty when the file sets nothing in it)."""

    path: Path
    tables: Mapping[str, Mapping[str, object]] = field(default_factory=dict)

    def table(self, name: str) -> Mapping[str, object]:
        """The checked values one table sets (only the keys the file gives); ``name`` as in :data:`KNOWN_KEYS`."""
        if name not in KNOWN_KEYS:
            raise KeyError(f"the settings file has no table [{name}]; the tables are {_listed(KNOWN_KEYS)}")
        return self.tables.get(name, MappingProxyType({}))

    def limits(self, web: bool) -> Limits:
        """The web app's limits (``[web.limits]`` over the web defaults) or the command line's (``[limits]``)."""
        if web:
            return WEB_LIMITS.with_figures(self.table("web.limits"))
        return CLI_LIMITS.with_figures(self.table("limits"))


_cache: dict[Path, tuple[tuple[int, int], Settings]] = {}


def load(instance_folder: Path) -> Settings:
    """The instance's settings (no file: every default), read again only when the file changes."""
    path = settings_path(instance_folder)
    try:
        status = path.stat()
    except FileNotFoundError:
        if os.environ.get(ENVIRONMENT_VARIABLE):
            raise SettingsError(path, f"the settings file {ENVIRONMENT_VARIABLE} names does not exist; correct "
                                      f"the path, or unset {ENVIRONMENT_VARIABLE} to use the instance's "
                                      "referee.toml.") from None
        return Settings(path)
    except OSError as error:
        raise _unreadable(path, error) from None
    stamp = (status.st_mtime_ns, status.st_size)
    cached = _cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    settings = read(path)
    _cache[path] = (stamp, settings)
    return settings


def read(path: Path) -> Settings:
    """The settings file at ``path``, every table and value checked."""
    import tomllib  # only a run with a settings file reads TOML (issue 14's lean start-up)

    try:
        data = path.read_bytes()
    except OSError as error:
        raise _unreadable(path, error) from None
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise SettingsError(path, f"the settings file is not UTF-8 text (byte 0x{data[error.start]:02x}); save it "
                                  "as UTF-8.", line) from None
    try:
        document = tomllib.loads(source)
    except tomllib.TOMLDecodeError as error:
        raise _syntax_error(path, source, error) from None
    return Settings(path, MappingProxyType(_tables(document, path, source)))


def _unreadable(path: Path, error: OSError) -> SettingsError:
    return SettingsError(path, f"the settings file cannot be read ({error.strerror or error}); make it a text file "
                               "Referee may read, or move it aside to use the defaults.")


def _tables(document: dict, path: Path, source: str) -> dict[str, Mapping[str, object]]:
    tables: dict[str, Mapping[str, object]] = {}
    for name, content in _flattened(document, path, source):
        known = KNOWN_KEYS.get(name)
        if known is None:
            raise SettingsError(path, f"Referee has no settings table [{name}]; the tables are {_listed(KNOWN_KEYS)}.",
                                _line_of(source, name, None))
        values = {}
        for key, value in content.items():
            reader = known.get(key)
            if reader is None:
                keys = ", ".join(known) if known else "none yet"
                raise SettingsError(path, f"[{name}] has no key {key!r}; its keys are {keys}.",
                                    _line_of(source, name, key))
            try:
                values[key] = reader(value)
            except LimitSettingError as error:
                raise SettingsError(path, f"[{name}] {key}: {error}.",
                                    _line_of(source, name, key)) from None
        tables[name] = MappingProxyType(values)
    return tables


def _flattened(document: dict, path: Path, source: str):
    """(table name, its keys) for every table, ``[web.limits]`` as its own table beside ``[web]``."""
    for name, content in document.items():
        if not isinstance(content, dict):
            raise SettingsError(path, f"{name!r} is set outside any table; put it under one of the tables "
                                      f"{_listed(KNOWN_KEYS)}.", _line_of(source, None, name))
        own = {}
        for key, value in content.items():
            nested = f"{name}.{key}"
            if isinstance(value, dict) and nested in KNOWN_KEYS:
                yield nested, value
            else:
                own[key] = value
        yield name, own


def _listed(tables) -> str:
    return ", ".join(f"[{name}]" for name in tables)


_POSITION = re.compile(r"(?<!\s)\s*\(at line (\d+), column (\d+)\)$")
"""Tried only where a run of spaces starts (the look-behind), so a long run is not read again from each space."""
_HEADER = re.compile(r"\s*\[([^\[\]]+)\]")
_ASSIGNMENT = re.compile(r"\s*+([A-Za-z0-9_.\-\"' ]++)=")
"""The key before the first ``=`` (spaces around it are stripped by _normal); possessive, so linear in the line."""


def _syntax_error(path: Path, source: str, error: tomllib.TOMLDecodeError) -> SettingsError:
    message = str(error)
    position = _POSITION.search(message)
    line, column = (int(position[1]), int(position[2])) if position else (0, 0)
    problem = _POSITION.sub("", message)
    key = _key_on(source, line)
    of_key = f" (the line of {key!r})" if key else ""
    return SettingsError(path, f"the settings file is not valid TOML: {problem[:1].lower()}{problem[1:]}{of_key}; "
                               "correct it or remove that line.", line, column)


def _key_on(source: str, line: int) -> str | None:
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return None
    match = _ASSIGNMENT.match(lines[line - 1])
    return _normal(match[1]) if match else None


def _normal(dotted: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in dotted.split("."))


def _line_of(source: str, table: str | None, key: str | None) -> int:
    """The line that opens ``[table]`` (``key`` None) or sets ``key`` in it; 0 when it cannot be told."""
    header = ""
    wanted = ".".join(part for part in (table, key) if part)
    for number, line in enumerate(source.splitlines(), start=1):
        opened = _HEADER.match(line)
        if opened:
            header = _normal(opened[1])
            if key is None and header == wanted:
                return number
            continue
        assigned = _ASSIGNMENT.match(line)
        if assigned and ".".join(part for part in (header, _normal(assigned[1])) if part) == wanted:
            return number
    return 0

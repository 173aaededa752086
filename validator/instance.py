"""The instance folder: the one place Referee keeps a user's data.

It holds the SQLite database, uploads and the generated secret key.  The
environment variable ``REFEREE_INSTANCE`` chooses it; otherwise it is the
per-user data folder of the platform, created on first use.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

from validator.errors import InputError

ENVIRONMENT_VARIABLE = "REFEREE_INSTANCE"
DATABASE_NAME = "referee.sqlite3"
SECRET_KEY_NAME = "secret_key"
SECRET_KEY_VARIABLE = "REFEREE_SECRET_KEY"  # a key given here is used instead of the instance's (validator.web)


def default_folder() -> Path:
    """The platform's per-user data folder for Referee."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "referee"


def is_chosen() -> bool:
    """Whether ``REFEREE_INSTANCE`` chooses the folder (else it is the platform's default)."""
    return bool(os.environ.get(ENVIRONMENT_VARIABLE))


def resolved_folder() -> Path:
    """The instance folder in force, as an absolute path; nothing is created (``referee info`` only looks)."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    return (Path(chosen).expanduser() if chosen else default_folder()).absolute()


class UnusableInstanceFolder(InputError):
    """The instance folder cannot be created or written: a file stands in its way, or the place is read-only."""


def folder() -> Path:
    """The instance folder in force, created if it does not exist yet."""
    path = resolved_folder()
    try:
        path.mkdir(parents=True, exist_ok=True)
        (path / "uploads").mkdir(exist_ok=True)
    except OSError as error:
        raise UnusableInstanceFolder(path, _why_unusable(path, error)) from None
    return path


def file_in_the_way(path: Path) -> Path | None:
    """The file (not a folder) standing at ``path`` or at one of the folders above it, if any."""
    for part in (*reversed(path.parents), path):
        if part.exists() and not part.is_dir():
            return part
    return None


def _why_unusable(path: Path, error: OSError) -> str:
    blocking = file_in_the_way(path / "uploads")
    if blocking is not None:
        cause = f"{blocking} is a file, not a folder"
    else:
        cause = f"it cannot be created or written ({error.strerror or error})"
    return (f"cannot be used as Referee's instance folder: {cause}; set {ENVIRONMENT_VARIABLE} to a folder "
            "Referee may write in")


def database_path(instance: Path) -> Path:
    return instance / DATABASE_NAME


def secret_key(instance: Path) -> str:
    """The instance's secret key, generated once and kept private to the user."""
    path = instance / SECRET_KEY_NAME
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process generated it first
        return path.read_text(encoding="ascii").strip()
    except OSError as error:
        raise UnusableInstanceFolder(
            instance, f"cannot hold the web app's secret key ({error.strerror or error}); set {ENVIRONMENT_VARIABLE} "
                      f"to a folder Referee may write in, or give the key in {SECRET_KEY_VARIABLE}") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(key)
    return key

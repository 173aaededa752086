"""The instance folder: the one place Referee keeps a user's data.

It holds the SQLite database, uploads and the generated secret key.  The
environment variable ``REFEREE_INSTANCE`` chooses it; otherwise it is the
per-user data folder of the platform, created on first use.

What it holds is the owner's only: the folders are made ``0700`` and the
database and secret key ``0600`` when they are created, and tightened (with a
note in the log) when they are found readable by others.  The secret key is
written to a temporary file and renamed into place, so another process never
reads it half written; a key file found empty or damaged is replaced, with a
note in the log, rather than failing every page.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

from validator.errors import InputError


def _logger():
    """This module's logger: logging is imported only when there is something to say (issue 14's lean start-up)."""
    import logging

    return logging.getLogger(__name__)


ENVIRONMENT_VARIABLE = "REFEREE_INSTANCE"
DATABASE_NAME = "referee.sqlite3"
SECRET_KEY_NAME = "secret_key"
KEY_LOCK_NAME = "secret_key.lock"
SECRET_KEY_VARIABLE = "REFEREE_SECRET_KEY"  # a key given here is used instead of the instance's (validator.web)
UPLOADS_NAME = "uploads"
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
SHORTEST_KEY = 32  # characters; ours are 64 hexadecimal digits, a key written by hand may be any printable text


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
    """The instance folder in force, created if it does not exist yet, with its uploads folder; both private."""
    path = resolved_folder()
    make_private_folders(path)
    return path


def make_private_folders(path: Path) -> None:
    """Create the instance folder ``path`` and its uploads folder, both owner-only (tightened when found looser)."""
    uploads = path / UPLOADS_NAME
    try:
        path.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
        uploads.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
    except OSError as error:
        raise UnusableInstanceFolder(path, _why_unusable(path, error)) from None
    keep_private(path, PRIVATE_FOLDER)
    keep_private(uploads, PRIVATE_FOLDER)


def keep_private(path: Path, mode: int) -> None:
    """Take from ``path`` any right its group or others have (``mode`` says what is left at most), with a log note.

    Only rights are removed, never added: a file its owner made read-only
    stays read-only.  A file Referee cannot change (it belongs to another
    user) is noted and left as it is; the work goes on.
    """
    try:
        current = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return  # not there (yet): whoever creates it sets its rights
    if not current & ~mode:
        return
    try:
        path.chmod(current & mode)
    except OSError as error:
        _logger().warning("%s can be read by other users than its owner, and Referee could not change that (%s); "
                           "make it readable by its owner only.", path, error.strerror or error)
        return
    _logger().warning("%s could be read by other users than its owner (mode %03o); it is now %03o, readable by "
                       "its owner only.", path, current, current & mode)


def create_private_file(path: Path) -> None:
    """Create ``path`` empty and owner-only if it does not exist, else take others' rights from it.

    The database calls this before SQLite opens the file, since SQLite
    creates a new file readable by everyone (as the umask allows) and gives
    its journal the database file's rights.  A file that cannot be created
    here is left to SQLite, whose own error says why.
    """
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        if path.is_file():
            keep_private(path, PRIVATE_FILE)
        return
    except OSError:
        return
    os.close(descriptor)


def file_in_the_way(path: Path) -> Path | None:
    """The file (not a folder) standing at ``path`` or at one of the folders above it, if any."""
    for part in (*reversed(path.parents), path):
        if part.exists() and not part.is_dir():
            return part
    return None


def _why_unusable(path: Path, error: OSError) -> str:
    blocking = file_in_the_way(path / UPLOADS_NAME)
    if blocking is not None:
        cause = f"{blocking} is a file, not a folder"
    else:
        cause = f"it cannot be created or written ({error.strerror or error})"
    return (f"cannot be used as Referee's instance folder: {cause}; set {ENVIRONMENT_VARIABLE} to a folder "
            "Referee may write in")


def database_path(instance: Path) -> Path:
    return instance / DATABASE_NAME


DATABASE_URL_VARIABLE = "REFEREE_DATABASE_URL"  # a postgresql:// URL: the database is that server's (validator.store)


def database_target(instance: Path) -> Path | str:
    """The database in force: the URL ``REFEREE_DATABASE_URL`` gives, else the instance folder's SQLite file."""
    return os.environ.get(DATABASE_URL_VARIABLE) or database_path(instance)


def secret_key(instance: Path) -> str:
    """The instance's secret key, generated once and kept private to the user.

    A key file found empty or damaged (not printable text of at least
    :data:`SHORTEST_KEY` characters) is replaced with a new key, and the log
    says so: the sessions signed with the old key end, nothing else is lost.
    Creating and replacing happen under a lock, so processes starting at
    once agree on one key.
    """
    path = instance / SECRET_KEY_NAME
    key = _read_key(path, instance)
    if key is not None:
        keep_private(path, PRIVATE_FILE)
        return key
    with _key_lock(instance):
        key = _read_key(path, instance)  # another process may have written it while this one waited
        if key is not None:
            return key
        if path.exists():
            _logger().warning("The secret key file %s is empty or damaged; Referee wrote a new key in its place "
                               "(signed-in sessions end, nothing else is lost).", path)
        key = os.urandom(32).hex()  # what secrets.token_hex does; secrets costs start-up
        _write_in_place(path, key, instance)
        return key


def _read_key(path: Path, instance: Path) -> str | None:
    """The key the file holds; None when there is no file, or it is empty or damaged."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _unusable_for_key(instance, error) from None
    try:
        key = data.decode("ascii").strip()
    except UnicodeDecodeError:
        return None
    return key if is_usable_key(key) else None


def is_usable_key(key: str) -> bool:
    """Long enough to sign sessions with, and printable without spaces (so no file or shell mangles it)."""
    return len(key) >= SHORTEST_KEY and key.isprintable() and not any(character.isspace() for character in key)


class WeakSecretKey(InputError):
    """The key given in ``REFEREE_SECRET_KEY`` is too short, or has spaces or unprintable characters."""


def given_secret_key() -> str | None:
    """The key ``REFEREE_SECRET_KEY`` gives, if any; a weak one is refused, since it would sign arbiters' sessions."""
    key = os.environ.get(SECRET_KEY_VARIABLE)
    if key is None or key == "":
        return None
    if not is_usable_key(key):
        raise WeakSecretKey(SECRET_KEY_VARIABLE, (
            f"the secret key must be at least {SHORTEST_KEY} printable characters without spaces, and the one "
            f"given is not; make one with: python3 -c 'import secrets; print(secrets.token_hex(32))'."))
    return key


@contextlib.contextmanager
def _key_lock(instance: Path):
    """Hold the instance's key lock (an advisory lock on a file beside the key) while the key is written."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; creating at once there may give two processes two keys
        yield
        return
    try:
        descriptor = os.open(instance / KEY_LOCK_NAME, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
    except OSError as error:
        raise _unusable_for_key(instance, error) from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _write_in_place(path: Path, key: str, instance: Path) -> None:
    """Write the key to a new private file beside ``path``, then rename it into place in one step."""
    temporary = path.with_name(f".{path.name}-{os.urandom(8).hex()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(key)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise _unusable_for_key(instance, error) from None


def _unusable_for_key(instance: Path, error: OSError) -> UnusableInstanceFolder:
    return UnusableInstanceFolder(
        instance, f"cannot hold the web app's secret key ({error.strerror or error}); set {ENVIRONMENT_VARIABLE} "
                  f"to a folder Referee may write in, or give the key in {SECRET_KEY_VARIABLE}")

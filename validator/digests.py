"""SHA-256 of bytes without paying for ``hashlib``'s import where the bytes are few.

``import hashlib`` loads OpenSSL's ``_hashlib`` (and ``_blake2``): some 4 ms
of a small check's start-up, for hashing a few kilobytes (issue 14's lean
start-up).  The interpreter's own SHA-256 module imports in a fraction of
that and gives the same digest, but hashes several times slower than
OpenSSL: so bytes beyond :data:`SMALL_BYTES`, or any bytes once ``hashlib``
is loaded anyway, go through ``hashlib``.  The digest is SHA-256's either
way; only the time differs.
"""

from __future__ import annotations

import sys

SMALL_BYTES = 512 * 1024  # up to it, the builtin hashes sooner than hashlib imports (~2 ms at most against ~4 ms)


def _builtin_sha256():
    """The interpreter's own SHA-256 constructor, or None where it has none of that name."""
    for name in ("_sha256", "_sha2"):  # CPython 3.11, 3.12 and later
        try:
            module = __import__(name)
        except ImportError:
            continue
        constructor = getattr(module, "sha256", None)
        if constructor is not None:
            return constructor
    return None


def sha256(data: bytes = b"", total_bytes: int | None = None):
    """A SHA-256 hash object started with ``data`` (``update`` and ``hexdigest`` as ``hashlib.sha256``'s).

    ``total_bytes``: how many bytes it will hash in all, when more than ``data`` is to come.
    """
    if max(len(data), total_bytes or 0) <= SMALL_BYTES and "hashlib" not in sys.modules:
        constructor = _builtin_sha256()
        if constructor is not None:
            return constructor(data)
    import hashlib

    return hashlib.sha256(data)

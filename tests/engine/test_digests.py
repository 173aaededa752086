"""validator.digests: the same SHA-256 digests as hashlib's, by whichever module computes them."""

from __future__ import annotations

import hashlib
import sys

import pytest

from validator import digests

SAMPLES = [b"", b"referee", bytes(range(256)) * 1000, b"x" * (digests.SMALL_BYTES + 1)]


@pytest.mark.parametrize("data", SAMPLES, ids=["empty", "word", "256 kB", "beyond small"])
def test_digest_is_sha256(data):
    assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("data", SAMPLES[:3], ids=["empty", "word", "256 kB"])
def test_builtin_digest_is_sha256(data):
    constructor = digests._builtin_sha256()
    if constructor is None:
        pytest.skip("this interpreter has no builtin SHA-256 module")
    digest = constructor(data[:10])
    digest.update(data[10:])
    assert digest.hexdigest() == hashlib.sha256(data).hexdigest()


def test_few_bytes_use_the_builtin_before_hashlib_is_imported(monkeypatch):
    if digests._builtin_sha256() is None:
        pytest.skip("this interpreter has no builtin SHA-256 module")
    monkeypatch.delitem(sys.modules, "hashlib")  # as in a check, which has not imported hashlib
    digest = digests.sha256(b"refer", total_bytes=7)
    digest.update(b"ee")
    assert type(digest) is type(digests._builtin_sha256()())
    assert digest.hexdigest() == hashlib.sha256(b"referee").hexdigest()


def test_many_bytes_use_hashlib(monkeypatch):
    monkeypatch.delitem(sys.modules, "hashlib")
    digest = digests.sha256(b"", total_bytes=digests.SMALL_BYTES + 1)
    assert type(digest) is type(hashlib.sha256())

"""Writing the command line's output: the one way text and JSON reach the terminal.

* Text goes out in the console's own encoding.  A character that encoding
  cannot hold (an em dash on a Windows console in code page 850, say) is
  written as a Python backslash escape (``\\u2014``), never a crash.
* JSON goes out as UTF-8 bytes whatever the console's encoding, because
  RFC 8259 makes UTF-8 the encoding of JSON exchanged between programs.
* A file name whose bytes are not UTF-8 reaches Python as lone surrogates
  (PEP 383); each undecodable byte is shown as U+FFFD REPLACEMENT CHARACTER,
  in text and JSON alike, so the output is always valid UTF-8.
* Output into a pipe that has closed (``referee rules list tito | head -1``)
  ends quietly with :data:`EXIT_BROKEN_PIPE`, as if SIGPIPE had ended the
  process the way it ends coreutils.
"""

from __future__ import annotations

import os
import re
import sys
from typing import TextIO

# 128 + SIGPIPE (13): what a shell reports for a process a closed pipe ended.
EXIT_BROKEN_PIPE = 128 + 13
REPLACEMENT_CHARACTER = "\ufffd"
UNENCODABLE = "backslashreplace"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def displayable(text: str) -> str:
    """The text with every lone surrogate (an undecodable file-name byte) replaced by U+FFFD."""
    return _LONE_SURROGATE.sub(REPLACEMENT_CHARACTER, text)


def prepare_streams() -> None:
    """Make standard output and error escape what the console cannot encode instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=UNENCODABLE)


def write_text(text: str, stream: TextIO | None = None, end: str = "\n") -> None:
    """Print ``text`` (standard output unless ``stream`` is given) in the console's encoding."""
    print(displayable(text), end=end, file=stream or sys.stdout)


def write_error(text: str) -> None:
    write_text(text, sys.stderr)


def write_json(text: str) -> None:
    """Write rendered JSON to standard output as UTF-8 bytes, ending with a newline."""
    data = displayable(text).rstrip("\n") + "\n"
    stream = sys.stdout
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text-only stand-in for standard output
        stream.write(data)
        return
    stream.flush()
    binary.write(data.encode("utf-8"))
    binary.flush()


def write_bytes(data: bytes) -> None:
    """Write bytes that carry their own encoding (an XML document) to standard output unchanged."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def silence_standard_output() -> None:
    """Point standard output at the null device, so the interpreter's flush at exit finds no closed pipe."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file: nothing will be flushed to a pipe
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)

"""How much any input may make Referee read, count or build, in one place.

A file from a stranger can be small and still ask for minutes of work or
gigabytes of memory: a compressed layer that expands, a count that is never
reached in a real game, a number that builds a label letter by letter.  Every
reader counts as it goes and refuses the input as soon as one of these
figures is passed, with a sentence naming the limit and the figure found,
before the work is done rather than after.

Two sets of figures ship (docs/limits.md gives each with its reason):

* :data:`CLI_LIMITS`, the command line's, admit the largest real files with
  room to spare (the figures in brackets are the most a real file in the
  VASSAL corpus or the samples holds; a World in Flames save holds over
  200 MB of command text);
* :data:`WEB_LIMITS`, the web app's, are smaller: a check of a stranger's
  upload at these figures keeps the reading process below 300 MB.

The instance's ``referee.toml`` (:mod:`validator.settings`) and the command
line's ``--limit NAME=VALUE`` change them; a reader takes the
:class:`Limits` it is given.  A refusal names its limit as "the NAME
limit" (:meth:`Limits.beyond` writes it so), which is how
:func:`exceeded_limit` tells the command line which option to suggest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


@dataclass(frozen=True, slots=True)
class Limits:
    """Every cap a reader applies; each field's docstring says what it counts.  The defaults are the CLI's."""

    # -- bytes, counted per decompression layer ---------------------------------------------------
    entry_bytes: int = 1 * GIB
    """Bytes one streamed zip entry (a ``savedGame``) may inflate to [28 MB]."""
    text_bytes: int = 1 * GIB
    """Bytes of command text one ``savedGame`` may decode to (after XZ, XOR and hex) [14 MB]."""
    xml_bytes: int = 64 * MIB
    """Bytes of one XML document parsed whole: a buildFile (zipped or bare), a save or map of ours [1.1 MB]."""
    xz_memory_bytes: int = 256 * MIB
    """Memory the XZ layer of a ``!VOXZ`` save may ask for to decompress (XZ's default preset needs 9 MB)."""
    image_header_bytes: int = 256 * KIB
    """Bytes read from a board image to find its size (only the header is needed)."""
    chunk_bytes: int = 1 * MIB
    """Size of each streamed read; it bounds memory, not correctness."""

    # -- counts --------------------------------------------------------------------------------------
    commands: int = 10_000_000
    """Command tokens in a VASSAL save or log: ESC-separated tokens at any depth, empty ones too [5,300]."""
    pieces: int = 100_000
    """Pieces in one position: our save format's pieces, or a VASSAL save's pieces, stacks and decks [5,015]."""
    stack_members: int = 20_000
    """Pieces one VASSAL stack or deck may list [114]."""
    traits: int = 2_000
    """Traits in one VASSAL piece's decorator chain [207]."""
    list_items: int = 100_000
    """Items of one list in a VASSAL game: a marker's keys, a layer's images, a map's boards, players, properties."""
    nesting: int = 100
    """How deep VASSAL commands may nest (an ESC preceded by this many backslashes) [1]."""
    facts: int = 100_000
    """Fact values in one save of our format."""
    events: int = 100_000
    """Events in one save of our format."""
    hexes: int = 1_000_000
    """Areas and hexes of one map of our format."""
    chain_saves: int = 10_000
    """Saves in one chain sent to be checked at once (the web's multi-file upload)."""
    log_steps: int = 1_000_000
    """Steps of one VASSAL log judged step by step on the web (each step is a position read and judged)."""

    # -- grid numbering of a VASSAL module -----------------------------------------------------------
    grid_offset: int = 10_000
    """The largest ``hOff`` or ``vOff`` (in either direction) of a grid numbering [15]."""
    grid_leading: int = 32
    """The largest ``hLeading`` or ``vLeading`` (leading zeros) of a grid numbering [1]."""
    label_characters: int = 1_000
    """Characters one row or column label may have (alphabetic labels grow one letter per 26)."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"the limit {field.name} must be a whole number of at least 1, not {value!r}")

    def beyond(self, name: str) -> str:
        """How a refusal names the limit it hit: ``more than the pieces limit of 100,000``.

        The reader puts the figure it found before it; that figure may be a
        lower bound, since counting stops at the first figure past the limit.
        """
        return f"more than the {name} limit of {getattr(self, name):,}"

    def with_figures(self, figures: Mapping[str, int]) -> Limits:
        """These limits with some figures replaced (names already checked by :func:`parse_assignment`)."""
        return replace(self, **figures)


CLI_LIMITS = Limits()
"""The command line's figures: the largest real saves pass (at least 256 MiB of entry, 512 MB of command text)."""

DEFAULT_LIMITS = CLI_LIMITS
"""What a reader applies when its caller passes no limits: the command line's figures."""

WEB_LIMITS = Limits(
    entry_bytes=32 * MIB,  # streamed, never held: it bounds time; the hex of 16 MiB of text (real: 28 MB)
    text_bytes=16 * MIB,  # the largest real save holds 14 MB; reading 16 MiB of pieces costs up to 190 MB
    xml_bytes=4 * MIB,  # parsed whole: a tree costs up to 30 bytes per byte of XML; the largest real is 1.1 MB
    xz_memory_bytes=64 * MIB,  # XZ's default preset needs about 9 MB; a hostile header may ask for 1.5 GiB
    commands=500_000,  # a hundred times the real most, and a fraction of what 16 MiB of ESCs could hold
    pieces=10_000,  # twice the real most (5,015 pieces, stacks and decks); each piece read costs kilobytes
    stack_members=5_000,
    traits=500,
    list_items=10_000,
    nesting=32,
    facts=20_000,
    events=20_000,
    hexes=100_000,
    chain_saves=20,  # each save is read and judged in turn, so a request takes time in proportion; 20 turns is plenty
    log_steps=2_000,  # each step is a position translated and judged (5,000 steps fit in 15 KB and took 18 s)
    grid_offset=1_000,
    grid_leading=8,
    label_characters=100,
)
"""The web app's figures, for uploads from strangers: a check at these figures stays below 300 MB."""

NAMES = tuple(field.name for field in fields(Limits))
"""Every limit's name, as ``--limit`` and the settings file spell it."""

_FIGURE = re.compile(r"(?P<number>[0-9][0-9_,]*)\s*(?P<suffix>[A-Za-z]*)")
SUFFIXES = {
    "": 1, "k": 1000, "m": 1000**2, "g": 1000**3,
    "kb": 1000, "mb": 1000**2, "gb": 1000**3,
    "kib": KIB, "mib": MIB, "gib": GIB,
}
"""Multipliers a figure may end with, in any case: k, M, G and kB, MB, GB (powers of 1000), KiB, MiB, GiB (of 1024)."""

FIGURE_HELP = "a whole number, optionally with k, M, G (thousands) or KiB, MiB, GiB (1024s), such as 20000, 20k, 256MiB"


class LimitSettingError(ValueError):
    """A limit named or figured wrongly (on the command line or in the settings file); the message says how."""


def parse_figure(text: str) -> int:
    """``"256MiB"`` -> 268435456, ``"20k"`` -> 20000, ``"1_000"`` -> 1000; at least 1."""
    if text.strip().startswith("-"):
        raise LimitSettingError(f"{text!r} is less than 1, the least a limit may be")
    match = _FIGURE.fullmatch(text.strip())
    multiplier = SUFFIXES.get(match["suffix"].lower()) if match else None
    if match is None or multiplier is None:
        raise LimitSettingError(f"{text!r} is not a figure; give {FIGURE_HELP}")
    number = int(match["number"].replace("_", "").replace(",", "")) * multiplier
    if number < 1:
        raise LimitSettingError(f"{text!r} is less than 1, the least a limit may be")
    return number


def check_name(name: str) -> str:
    """The name, when it is a limit's; else an error listing the limits."""
    if name not in NAMES:
        raise LimitSettingError(f"there is no limit called {name!r}; the limits are {', '.join(NAMES)}")
    return name


LEAST = {"chunk_bytes": 4 * KIB}
"""Limits with a floor above 1: a streamed read of a byte or two at a time would take hours on a real save."""


def checked_figure(name: str, number: int) -> int:
    """``number`` for the limit ``name``, when it is not below that limit's floor."""
    least = LEAST.get(name, 1)
    if number < least:
        raise LimitSettingError(f"{number:,} is less than {least:,}, the least the {name} limit may be")
    return number


def parse_assignment(text: str) -> tuple[str, int]:
    """``"pieces=20k"`` -> ``("pieces", 20000)``: one ``--limit`` option's value."""
    name, equals, figure = text.partition("=")
    if not equals or not name.strip() or not figure.strip():
        raise LimitSettingError(f"{text!r} is not NAME=VALUE, such as pieces=200000 or text_bytes=2GiB")
    name = check_name(name.strip())
    return name, checked_figure(name, parse_figure(figure))


_NAMED_LIMIT = re.compile(r"\bthe (" + "|".join(NAMES) + r") limit\b")


def exceeded_limit(sentence: str) -> str | None:
    """The limit a refusal names ("more than the pieces limit of ..."), or None for any other sentence."""
    match = _NAMED_LIMIT.search(sentence)
    return match[1] if match else None


def with_raising_hint(sentence: str, where: str, option: bool = True) -> str:
    """A limit's refusal with how to raise that limit added (``where`` names the settings file); others unchanged.

    ``option`` False leaves ``--limit`` out, for a command that does not take it.
    """
    name = exceeded_limit(sentence)
    if name is None:
        return sentence
    how = f"with --limit {name}=N or " if option else ""
    return f"{sentence.rstrip('. ')}; raise it {how}in [limits] of {where}."


def with_site_note(sentence: str) -> str:
    """A limit's refusal on the web, saying the limit is this site's (a visitor cannot raise it); others unchanged."""
    if exceeded_limit(sentence) is None:
        return sentence
    return (f"{sentence.rstrip('. ')}; that limit is this site's, set for files checked here, so the file cannot "
            "be checked on this site (the referee command line admits much larger files).")

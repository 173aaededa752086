"""How much any input may make Referee read, count or build, in one place.

A file from a stranger can be small and still ask for minutes of work or
gigabytes of memory: a compressed layer that expands, a count that is never
reached in a real game, a number that builds a label letter by letter.  Every
reader counts as it goes and refuses the input as soon as one of these
figures is passed, with a sentence naming the limit and the figure found,
before the work is done rather than after.

The defaults admit the largest real files we know of with room to spare (the
figures in brackets are the most a real file in the VASSAL corpus or the
samples holds); a caller that needs other figures passes its own
:class:`Limits`, which is why every reader takes one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """Every cap a reader applies; each field's docstring says what it counts."""

    # -- bytes, counted per decompression layer ---------------------------------------------------
    entry_bytes: int = 64 * MIB
    """Bytes one zip entry may inflate to (also the cap on a bare buildFile on disk)."""
    text_bytes: int = 256 * MIB
    """Bytes of command text one ``savedGame`` may decode to (after XZ, XOR and hex) [14 MB]."""
    image_header_bytes: int = 256 * 1024
    """Bytes read from a board image to find its size (only the header is needed)."""
    chunk_bytes: int = 1 * MIB
    """Size of each streamed read; it bounds memory, not correctness."""

    # -- counts --------------------------------------------------------------------------------------
    commands: int = 10_000_000
    """Command tokens in a VASSAL save or log: ESC-separated tokens at any depth, empty ones too [5,300]."""
    pieces: int = 100_000
    """Pieces in one position: our save format's pieces, or a VASSAL save's pieces, stacks and decks [5,000]."""
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

    # -- grid numbering of a VASSAL module -----------------------------------------------------------
    grid_offset: int = 10_000
    """The largest ``hOff`` or ``vOff`` (in either direction) of a grid numbering [1]."""
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


DEFAULT_LIMITS = Limits()

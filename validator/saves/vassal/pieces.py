"""A piece's decorator chain: traits paired with their states, and what they say.

VASSAL builds a piece as traits wrapped around a BasicPiece; its type and
state strings are both ``own<TAB>inner``, nested one SequenceEncoder level per
trait.  Trait i of the type pairs with element i of the state.  Unknown trait
ids (custom modules register their own) are kept raw, never guessed at.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import sub
from types import MappingProxyType

from validator.limits import DEFAULT_LIMITS

from .model import Concealment, Layer, Trait
from .sequence import Decoder, encode, items, java_int, leading, split

MOST_PROPERTIES = 10_000
"""Persistent properties read from one BasicPiece state; VASSAL's count field could claim two billion."""


_RUNS = tuple("\\" * depth for depth in range(512))
"""Backslash runs by depth, for the check that a chain nests nothing inside its elements (deeper: the general way)."""


class PieceChainError(ValueError):
    """A piece whose trait chain is absurdly deep; the reader names the file."""


def trait_id(own_type: str) -> str:
    """The id prefix ``createPiece`` dispatches on: up to and including the first ``;``."""
    index = own_type.find(";")
    return own_type if index < 0 else own_type[: index + 1]


def chain_elements(value: str, count: int) -> list[str]:
    """Up to ``count`` outermost-first elements of a type or state chain, in time linear in its length.

    The result is what splitting off the first TAB-token of ``rest`` over and over gives (VASSAL's
    ``Decorator`` reading ``myType``, then ``inner``), without building each
    level's remainder: element k sits k levels deep, so the TAB that ends it
    is preceded by exactly k backslashes, every TAB inside it by more, and
    unescaping it once per level removes k + 1 of them.

    The text is split at every TAB once (at C speed) and each part's run of
    trailing backslashes measured.  When the runs are 0, 1, 2, ... in order,
    every TAB ends one level and nothing nests inside an element: the case of
    nearly every real state and of most types, where each element is its part
    less the separator's backslashes.  Otherwise each level's TAB is looked up
    by its run (:func:`_nested_elements`).
    """
    if "\t" not in value:
        return [_unquote(value)][:count]
    parts = value.split("\t")
    separators = len(parts) - 1
    ended = parts[:-1]
    if (separators < len(_RUNS) and value[-1] != "'" and all(map(str.endswith, ended, _RUNS))
            and not any(map(str.endswith, ended, _RUNS[1:]))):
        # Part d ends with exactly d backslashes: every TAB ends one level, and the remainder at every
        # level ends where the value ends, so no level is quoted but by its own element.
        return [_unquote(parts[depth][:len(parts[depth]) - depth] if depth < separators else parts[depth])
                for depth in range(min(count, len(parts)))]
    parts.pop()
    runs = list(map(sub, map(len, parts), map(len, map(str.rstrip, parts, repeat("\\")))))
    return _nested_elements(value, count, parts, runs)


def _nested_elements(value: str, count: int, parts: list[str], runs: list[int]) -> list[str]:
    """The general case of :func:`chain_elements`: TABs inside elements, quoted remainders, extra tokens.

    At level d the element ends at the first TAB after the level's start
    whose run is exactly d; the level's remainder ends at the next such TAB
    (VASSAL reads two tokens per level and ignores the rest).  Every TAB a
    level's search passes has a longer run than d and so costs more than d
    characters of text, which keeps the searches linear in the text.
    """
    ends = list(accumulate(map(len, parts)))      # TAB i sits at ends[i] + i
    tabs_of_run = Counter(runs)
    elements: list[str] = []
    low, high, depth = 0, len(value), 0
    first_tab, end_tab = 0, len(runs)
    while len(elements) < count:
        try:
            tab = runs.index(depth, first_tab, end_tab)
        except ValueError:
            elements.append(_unquote(_unescaped(value, low, high, depth + 1)))
            break
        at = ends[tab] + tab
        elements.append(_unquote(_unescaped(value, low, at - depth, depth + 1)))
        if tabs_of_run[depth] > 1:         # another TAB of this run somewhere: it may end this level's remainder
            try:
                end_tab = runs.index(depth, tab + 1, end_tab)
                high = ends[end_tab] + end_tab - depth
            except ValueError:
                pass
        low, first_tab = at + 1, tab + 1
        if high - low > 1 and value[low] == "'" and value[high - 1] == "'":
            low, high = low + 1, high - 1
        depth += 1
    return elements


def _unescaped(value: str, start: int, end: int, backslashes: int) -> str:
    """``value[start:end]`` with ``backslashes`` backslashes taken from before each TAB (each has that many)."""
    text = value[start:end]
    if "\t" not in text:
        return text
    parts = text.split("\t")
    return "\t".join([part[:-backslashes] for part in parts[:-1]] + [parts[-1]])


def _unquote(token: str) -> str:
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


def encode_chain(elements: list[str]) -> str:
    """A chain from its elements, outermost first, nested as ``Decorator.getState`` and ``getType`` write it."""
    result = elements[-1]
    for element in reversed(elements[:-1]):
        result = encode([element, result], "\t")
    return result


def split_chain(value: str, most: int = DEFAULT_LIMITS.traits) -> list[str]:
    """Every outermost-first element of a type or state chain, refused past ``most`` traits."""
    elements = chain_elements(value, most + 1)
    if len(elements) > most:
        raise PieceChainError(f"its trait chain holds more than {most:,} traits, the traits limit")
    return elements


def parse_traits(type_string: str, state_string: str, most: int = DEFAULT_LIMITS.traits) -> tuple[Trait, ...]:
    """The piece's traits, outermost first, each with its own state ("" when missing)."""
    types = split_chain(type_string, most)
    states = chain_elements(state_string, len(types))
    states += [""] * (len(types) - len(states))
    return tuple(Trait(trait_id(own), own, state) for own, state in zip(types, states, strict=True))


@dataclass(frozen=True, slots=True)
class BasicState:
    """Where a BasicPiece's own state puts it, plus its persistent properties."""

    map: str | None
    x: int
    y: int
    properties: tuple[tuple[str, str], ...]


def basic_state(state: str) -> BasicState:
    """``map;x;y;gpId;N;k1;v1;…`` with VASSAL's defaults for the short old forms."""
    decoder = Decoder(state, ";", count=5)
    map_id = decoder.next_token("null")
    x = decoder.next_int(0)
    y = decoder.next_int(0)
    decoder.next_token("")
    count = max(0, min(decoder.next_int(0), MOST_PROPERTIES))
    pairs = []
    if count:                              # read the pairs, and no further
        decoder = Decoder(state, ";", count=5 + 2 * count)
        for _ in range(5):
            decoder.next_token()
    for _ in range(count):
        if not decoder.has_more():
            break
        pairs.append((decoder.next_token(""), decoder.next_token("")))
    return BasicState(None if map_id in ("null", "") else map_id, x, y, tuple(pairs))


def innermost_state(state_string: str) -> str:
    """The last element of a state chain: the BasicPiece's (or Stack's/Deck's) own state."""
    return split_chain(state_string)[-1]


@dataclass(frozen=True, slots=True)
class ContainerState:
    """A Stack's or Deck's own state: where it is and which ids it holds, bottom first."""

    map: str | None
    x: int
    y: int
    piece_ids: tuple[str, ...]
    layer: int | None = None
    face_down: bool = False


def stack_state(state: str) -> ContainerState:
    """``map;x;y;id1;…;idK[;@@layer]``.

    Like ``Stack.setState``, x/y are read only when the map is not ``null``;
    for an off-map stack the written ``0;0`` are read as ids, which resolve to
    no piece and are dropped by the replay, exactly as in VASSAL.
    """
    tokens = state.split(";") if "\\" not in state and "'" not in state else split(state, ";")
    map_id = tokens[0]
    if map_id in ("null", ""):
        map_value, x, y, rest = None, 0, 0, tokens[1:]
    else:
        map_value = map_id
        x = java_int(tokens[1] if len(tokens) > 1 else None, 0)
        y = java_int(tokens[2] if len(tokens) > 2 else None, 0)
        rest = tokens[3:]
    layer = None
    ids = []
    for token in rest:
        if token.startswith("@@"):
            layer = java_int(token[2:], -1)
        elif token:
            ids.append(token)
    return ContainerState(map_value, x, y, tuple(ids), layer)


def deck_state(state: str) -> ContainerState:
    """``map;x;y;faceDown;id1,id2,…``; unlike a Stack, x/y are read even off-map."""
    decoder = Decoder(state, ";", count=5)
    map_id = decoder.next_token("null")
    x = decoder.next_int(0)
    y = decoder.next_int(0)
    face_down = decoder.next_boolean(False)
    listed = decoder.next_token("")
    ids = tuple(token for token in split(listed, ",") if token) if listed else ()
    return ContainerState(None if map_id in ("null", "") else map_id, x, y, ids, None, face_down)


def deck_name(type_string: str) -> str:
    """Token 13 of a ``deck;`` type (``deck`` itself is token 0)."""
    tokens = leading(type_string, ";", 14)
    return tokens[13] if len(tokens) > 13 else ""


@dataclass(frozen=True, slots=True)
class PieceFacts:
    """Everything the trait chain tells a reader, gathered in one pass."""

    name: str
    basic_name: str
    image: str
    basic: BasicState
    properties: MappingProxyType
    layers: tuple[Layer, ...]
    masked: bool
    mask_name: str | None
    hidden: bool
    mask_owner: tuple[str, str] | None = None
    """(owner as recorded, access field) of the engaged outermost Mask; the owner may be a secret player id."""
    hide_owner: tuple[str, str] | None = None
    """The same for the engaged outermost Invisible trait."""


def piece_facts(traits: tuple[Trait, ...], most_items: int = DEFAULT_LIMITS.list_items) -> PieceFacts:
    """Name, image, properties, layers and mask/hide flags of a chain already paired with its states."""
    from .piece_types import piece_facts as facts  # the plan module builds on this one's chain reading

    return facts(traits, most_items)


def concealment(owner: tuple[str, str] | None, roster_sides: dict[str, str],
                most_items: int = DEFAULT_LIMITS.list_items) -> Concealment | None:
    """Who sees through an engaged Mask or Invisible trait, from its recorded owner and access field.

    ``PieceAccessConfigurer.decode``: ``side:`` is SideAccess, ``sides:A:B``
    (``:``-separated) is SpecifiedSideAccess, anything else PlayerAccess.
    Under the side rules the owner recorded is a side name; under PlayerAccess
    it is a player's secret id, which we turn into that player's side through
    the roster (``roster_sides``: id to side) and then forget.
    """
    if owner is None:
        return None
    recorded, access = owner
    if access == "side:":
        return Concealment("side", recorded)
    if access.startswith("sides:"):
        listed = access[len("sides:"):]
        sides = tuple(side for side in items(listed, ":", most_items) if side) if listed else ()
        return Concealment("sides", recorded, sides)
    return Concealment("player", roster_sides.get(recorded) or None)

"""A piece's decorator chain: traits paired with their states, and what they say.

VASSAL builds a piece as traits wrapped around a BasicPiece; its type and
state strings are both ``own<TAB>inner``, nested one SequenceEncoder level per
trait.  Trait i of the type pairs with element i of the state.  Unknown trait
ids (custom modules register their own) are kept raw, never guessed at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import accumulate, compress, repeat
from itertools import count as count_from
from operator import add, sub
from types import MappingProxyType
from typing import NamedTuple

from validator.limits import DEFAULT_LIMITS

from .model import Concealment, Layer, Trait
from .sequence import Decoder, encode, items, java_int, leading, split

MOST_PROPERTIES = 10_000
"""Persistent properties read from one BasicPiece state; VASSAL's count field could claim two billion."""


_RUNS = tuple("\\" * depth for depth in range(512))
"""Backslash runs by depth, for the check that a chain nests nothing inside its elements (deeper: the general way)."""
_LONGER_RUNS = _RUNS[1:]


class PieceChainError(ValueError):
    """A piece whose trait chain is absurdly deep; the reader names the file."""


def trait_id(own_type: str) -> str:
    """The id prefix ``createPiece`` dispatches on: up to and including the first ``;``."""
    index = own_type.find(";")
    return own_type if index < 0 else own_type[: index + 1]


class ChainElements(Sequence[str]):
    """The outermost-first elements of a type or state chain, found once and each unescaped only when read.

    A real type holds dozens of traits (menus, triggers, reports) of which a
    reader uses a handful, and a real state one element per trait; finding
    where every element lies costs a few passes at C speed, while building
    every element would cost a string each.  Element k sits k levels deep,
    so reading it takes k + 1 backslashes from before each TAB inside it.
    """

    __slots__ = ("_value", "_starts", "_ends", "_after_tabs")

    def __init__(self, value: str, starts: list[int], ends: list[int], after_tabs: bool = True) -> None:
        """``after_tabs``: every element but the first starts just after a TAB (no level's remainder was quoted)."""
        self._value, self._starts, self._ends, self._after_tabs = value, starts, ends, after_tabs

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, index):
        try:
            text = self._value[self._starts[index]:self._ends[index]]
        except TypeError:
            return [self[position] for position in range(*index.indices(len(self._starts)))]
        if "\t" in text:
            text = _unescaped(text, (index if index >= 0 else index + len(self._starts)) + 1)
        if len(text) > 1 and text[0] == "'" and text[-1] == "'":
            return text[1:-1]
        return text

    def __iter__(self) -> Iterator[str]:
        return map(self.__getitem__, range(len(self._starts)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChainElements | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"ChainElements({list(self)!r})"

    def trait_id(self, index: int) -> str:
        """Element ``index``'s trait id (:func:`trait_id`), from the raw text where unescaping cannot change it.

        Before the first ``;`` of an element that holds no TAB there and
        does not start with a quote, the raw text is the element's text.
        """
        value, start, end = self._value, self._starts[index], self._ends[index]
        semicolon = value.find(";", start, end)
        if semicolon >= 0 and value[start] != "'" and value.find("\t", start, semicolon) < 0:
            return value[start:semicolon + 1]
        return trait_id(self[index])

    def having_ids(self, ids: tuple[str, ...]) -> list[tuple[int, str]]:
        """(index, id) of each element whose trait id is one of ``ids``, in order, found without reading the others.

        Each of ``ids`` ends in its only ``;``.  When every element but the
        first starts just after a TAB, an element's raw text starts with its
        trait id unless it is quoted or its id holds a TAB, neither of which
        can be one of ``ids``: one ``startswith`` per element tells.
        """
        starts = self._starts
        if not self._after_tabs:
            return [(index, tid) for index, tid in enumerate(map(self.trait_id, range(len(starts)))) if tid in ids]
        value = self._value
        first = self.trait_id(0) if starts else ""
        found = [(0, first)] if first in ids else []
        for index in compress(range(1, len(starts)), map(value.startswith, repeat(ids), starts[1:])):
            start = starts[index]
            found.append((index, value[start:value.index(";", start) + 1]))
        return found


class TraitIds(Sequence[str]):
    """The trait ids of a chain's elements, each read when asked for; all of them only when iterated."""

    __slots__ = ("_elements", "_all")

    def __init__(self, elements: ChainElements) -> None:
        self._elements = elements
        self._all: tuple[str, ...] | None = None

    def __len__(self) -> int:
        return len(self._elements)

    def __getitem__(self, index):
        if self._all is not None or isinstance(index, slice):
            return self._every()[index]
        return self._elements.trait_id(index + len(self._elements) if index < 0 else index)

    def _every(self) -> tuple[str, ...]:
        if self._all is None:
            self._all = tuple(map(self._elements.trait_id, range(len(self._elements))))
        return self._all

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TraitIds | list | tuple):
            return self._every() == tuple(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"TraitIds({self._every()!r})"


def chain_view(value: str, count: int) -> ChainElements:
    """Up to ``count`` outermost-first elements of a type or state chain, located in time linear in its length.

    The elements are what splitting off the first TAB-token of ``rest`` over and over gives (VASSAL's
    ``Decorator`` reading ``myType``, then ``inner``), without building each
    level's remainder: element k sits k levels deep, so the TAB that ends it
    is preceded by exactly k backslashes, every TAB inside it by more, and
    unescaping it once per level removes k + 1 of them.

    The text is split at every TAB once (at C speed) and each part's run of
    trailing backslashes measured.  When the runs are 0, 1, 2, ... in order,
    every TAB ends one level and nothing nests inside an element: the case of
    nearly every real state and of most types, where element k is part k
    less the separator's k backslashes, and where the parts' lengths alone
    give every element's bounds.  Otherwise each level's TAB is looked up by
    its run (:func:`_nested_bounds`).
    """
    if "\t" not in value:
        return ChainElements(value, [0], [len(value)]) if count > 0 else ChainElements(value, [], [])
    parts = value.split("\t")
    separators = len(parts) - 1
    ended = parts[:-1]
    if (separators < len(_RUNS) and value[-1] != "'" and all(map(str.endswith, ended, _RUNS))
            and not any(map(str.endswith, ended, _LONGER_RUNS))):
        # Part d ends with exactly d backslashes: every TAB ends one level, and the remainder at every
        # level ends where the value ends, so no level is quoted but by its own element.  Element d
        # ends where part d's backslashes begin: at the sum of the lengths of parts 0..d, as the d TABs
        # before it make up for its d backslashes.
        ends = list(accumulate(map(len, ended)))
        starts = [0, *map(add, ends, count_from(1))]
        ends.append(len(value))
        del starts[count:], ends[count:]
        return ChainElements(value, starts, ends)
    parts.pop()
    layered = _layered_bounds(value, count, parts)
    if layered is not None:
        return ChainElements(value, *layered)
    runs = list(map(sub, map(len, parts), map(len, map(str.rstrip, parts, repeat("\\")))))
    return ChainElements(value, *_nested_bounds(value, count, parts, runs))


def chain_elements(value: str, count: int) -> list[str]:
    """Up to ``count`` outermost-first elements of a type or state chain, each built (:func:`chain_view`)."""
    return list(chain_view(value, count))


def _layered_bounds(value: str, count: int, parts: list[str]) -> tuple[list[int], list[int]] | None:
    """The bounds of a chain that nests TABs inside elements the way VASSAL writes them, or ``None``.

    In such a chain the TAB that ends level k has a run of exactly k
    backslashes and every TAB inside element k a run of k + 1 or more, and
    the last TAB ends a level.  One scan of the parts (``value`` split at
    every TAB, the last part left out) tells them apart with two
    ``endswith`` each, counting the levels passed.  Such a chain is one
    where :func:`_nested_bounds` finds the same TABs (and no second TAB of a
    level's run ends its remainder early), in a scan instead of a search
    per level.  Anything else (extra tokens, quoted remainders, TABs in the
    innermost element, runs past ``_RUNS``) gives ``None``, for the general
    rule to decide.
    """
    if value[-1] == "'":
        return None
    starts, stops = [0], []
    level, tab, inside = 0, -1, False
    deepest = len(_LONGER_RUNS)
    for part in parts:
        tab += len(part) + 1                   # where the TAB after this part lies
        if level >= deepest:
            return None
        inside = part.endswith(_LONGER_RUNS[level])
        if inside:                             # a run of level + 1 or more: a TAB inside element ``level``
            continue
        if not part.endswith(_RUNS[level]):    # a run shorter than the level's: not this layout
            return None
        stops.append(tab - level)
        starts.append(tab + 1)
        level += 1
    if inside:                                 # a TAB inside the innermost element
        return None
    stops.append(len(value))
    del starts[count:], stops[count:]
    return starts, stops


def _nested_bounds(value: str, count: int, parts: list[str], runs: list[int]) -> tuple[list[int], list[int], bool]:
    """The general case of :func:`chain_view`: TABs inside elements, quoted remainders, extra tokens.

    At level d the element ends at the first TAB after the level's start
    whose run is exactly d; the level's remainder ends at the next such TAB
    (VASSAL reads two tokens per level and ignores the rest).  Every TAB a
    level's search passes has a longer run than d and so costs more than d
    characters of text, which keeps the searches linear in the text.
    """
    ends = list(accumulate(map(len, parts)))      # TAB i sits at ends[i] + i
    tabs_of_run = Counter(runs)
    starts: list[int] = []
    stops: list[int] = []
    after_tabs = True
    low, high, depth = 0, len(value), 0
    first_tab, end_tab = 0, len(runs)
    while len(starts) < count:
        try:
            tab = runs.index(depth, first_tab, end_tab)
        except ValueError:
            starts.append(low)
            stops.append(high)
            break
        at = ends[tab] + tab
        starts.append(low)
        stops.append(at - depth)
        if tabs_of_run[depth] > 1:         # another TAB of this run somewhere: it may end this level's remainder
            try:
                end_tab = runs.index(depth, tab + 1, end_tab)
                high = ends[end_tab] + end_tab - depth
            except ValueError:
                pass
        low, first_tab = at + 1, tab + 1
        if high - low > 1 and value[low] == "'" and value[high - 1] == "'":
            low, high, after_tabs = low + 1, high - 1, False
        depth += 1
    return starts, stops, after_tabs


def _unescaped(text: str, backslashes: int) -> str:
    """``text`` with ``backslashes`` backslashes taken from before each TAB (each has that many)."""
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
    return list(_bounded_chain(value, most))


def _bounded_chain(value: str, most: int) -> ChainElements:
    elements = chain_view(value, most + 1)
    if len(elements) > most:
        raise PieceChainError(f"its trait chain holds more than {most:,} traits, the traits limit")
    return elements


def parse_traits(type_string: str, state_string: str, most: int = DEFAULT_LIMITS.traits) -> tuple[Trait, ...]:
    """The piece's traits, outermost first, each with its own state ("" when missing)."""
    types = split_chain(type_string, most)
    states = chain_elements(state_string, len(types))
    states += [""] * (len(types) - len(states))
    return tuple(Trait(trait_id(own), own, state) for own, state in zip(types, states, strict=True))


class BasicState(NamedTuple):
    """Where a BasicPiece's own state puts it, plus its persistent properties."""

    map: str | None
    x: int
    y: int
    properties: tuple[tuple[str, str], ...]


def basic_state(state: str) -> BasicState:
    """``map;x;y;gpId;N;k1;v1;…`` with VASSAL's defaults for the short old forms."""
    if "\\" not in state and "'" not in state:
        return _plain_basic_state(state)
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


def _plain_basic_state(state: str) -> BasicState:
    """:func:`basic_state` of a state without escapes or quotes, where plain ``str.split`` gives VASSAL's tokens."""
    tokens = state.split(";", 5)
    found = len(tokens)
    map_id = tokens[0]
    x = java_int(tokens[1], 0) if found > 1 else 0
    y = java_int(tokens[2], 0) if found > 2 else 0
    count = max(0, min(java_int(tokens[4], 0), MOST_PROPERTIES)) if found > 4 else 0
    pairs: tuple[tuple[str, str], ...] = ()
    if count and found > 5:
        values = tokens[5].split(";", 2 * count)
        del values[2 * count:]
        if len(values) % 2:
            values.append("")
        pairs = tuple(zip(values[::2], values[1::2], strict=True))
    return BasicState(None if map_id in ("null", "") else map_id, x, y, pairs)


def innermost_state(state_string: str) -> str:
    """The last element of a state chain: the BasicPiece's (or Stack's/Deck's) own state."""
    return _bounded_chain(state_string, DEFAULT_LIMITS.traits)[-1]


class ContainerState(NamedTuple):
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


class PieceFacts(NamedTuple):
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

"""A piece's decorator chain: traits paired with their states, and what they say.

VASSAL builds a piece as traits wrapped around a BasicPiece; its type and
state strings are both ``own<TAB>inner``, nested one SequenceEncoder level per
trait.  Trait i of the type pairs with element i of the state.  Unknown trait
ids (custom modules register their own) are kept raw, never guessed at.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from types import MappingProxyType

from validator.limits import DEFAULT_LIMITS

from .model import Concealment, Layer, Trait
from .sequence import Decoder, items, java_int, leading, split

_TAB_AFTER_RUN = re.compile(r"(?<!\\)(\\*)\t")
"""A TAB with the whole run of backslashes before it (the look-behind keeps each run to one match)."""


MOST_PROPERTIES = 10_000
"""Persistent properties read from one BasicPiece state; VASSAL's count field could claim two billion."""


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
    unescaping it once per level removes k + 1 of them.  Each level is a
    range of the original text found by bisecting the TABs of its depth.
    """
    if "\t" not in value:
        return [_unquote(value)][:count]
    tabs_at_depth: dict[int, list[int]] = {}
    for match in _TAB_AFTER_RUN.finditer(value):
        tabs_at_depth.setdefault(match.end(1) - match.start(1), []).append(match.end(1))
    elements: list[str] = []
    low, high, depth = 0, len(value), 0
    while len(elements) < count:
        tabs = tabs_at_depth.get(depth, ())
        index = bisect_left(tabs, low)
        first = tabs[index] if index < len(tabs) and tabs[index] < high else None
        elements.append(_unquote(_unescaped(value, low, high if first is None else first - depth, depth + 1)))
        if first is None:
            break
        second = tabs[index + 1] if index + 1 < len(tabs) and tabs[index + 1] < high else None
        low, high = first + 1, high if second is None else second - depth
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
    tokens = split(state, ";")
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


def _string_array(value: str, most: int) -> list[str]:
    return items(value, ",", most) if value else []


def layer_of(trait: Trait, most_items: int = DEFAULT_LIMITS.list_items) -> Layer:
    """An Embellishment's level and names (``emb2;`` and the old ``emb;`` layout)."""
    tokens = leading(trait.type, ";", 20) if trait.id == "emb2;" else items(trait.type, ";", most_items)
    if trait.id == "emb2;":
        fields = tokens[1:] + [""] * 19
        images = _string_array(fields[15], most_items)
        names = _string_array(fields[16], most_items)
        names += [""] * (len(images) - len(names))
        layer_name = fields[18]
        default_value = -1 if fields[2] else 1
    else:
        images_and_names = tokens[9:] if len(tokens) > 9 else []
        names = []
        for entry in images_and_names:
            parts = leading(entry, ",", 2)
            names.append(parts[1] if len(parts) > 1 else "")
        layer_name = ""
        activate_key = leading(tokens[1], ";", 1)[0] if len(tokens) > 1 else ""
        default_value = -1 if activate_key else 1
    value = java_int(leading(trait.state, ";", 1)[0], default_value) if trait.state else default_value
    level = abs(value) if value != 0 else 1
    active = value > 0
    level_name = names[value - 1] if active and value - 1 < len(names) else ""
    return Layer(layer_name, level, active, level_name, tuple(names))


def _apply_level_name(level_name: str, inner: str) -> str:
    if not level_name:
        return inner
    parts = leading(level_name, "+", 2)
    if len(parts) > 1:
        return inner + parts[1] if parts[0] == "" else parts[0] + inner
    return parts[0]


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
    """Name, image, properties, layers and mask/hide flags of a piece's trait chain."""
    basic_trait = traits[-1]
    basic_tokens = leading(basic_trait.type, ";", 5) + ["", "", "", "", ""]
    image, common_name = basic_tokens[3], basic_tokens[4]
    basic = basic_state(basic_trait.state) if basic_trait.id == "piece;" else BasicState(None, 0, 0, ())
    basic_name = common_name
    for trait in traits:
        if trait.id == "basicName;":
            basic_name = leading(trait.type, ";", 2)[1] if ";" in trait.type else basic_name
            break

    properties: dict[str, str] = {}
    layers: list[Layer] = []
    masked, mask_name, hidden = False, None, False
    mask_owner: tuple[str, str] | None = None
    hide_owner: tuple[str, str] | None = None
    name = basic_name
    for trait in reversed(traits[:-1]):          # innermost first, so outer traits wrap the name
        tid = trait.id
        if tid in ("emb2;", "emb;"):
            layer = layer_of(trait, most_items)
            layers.append(layer)
            if layer.active:
                name = _apply_level_name(layer.level_name, name)
        elif tid == "label;":
            tokens = leading(trait.type, ";", 19) + [""] * 19
            label = trait.state
            if label or tokens[18] == "true":
                name_format = tokens[12] or "$pieceName$ ($label$)"
                name = name_format.replace("$pieceName$", name).replace("$label$", label)
        elif tid == "obs;":
            owner = leading(trait.state, ";", 1)[0] if trait.state else "null"
            masked = owner not in ("null", "")
            tokens = leading(trait.type, ";", 7)
            mask_name = tokens[5] if len(tokens) > 5 and tokens[5] else "?"
            mask_owner = (owner, tokens[6] if len(tokens) > 6 else "") if masked else None
        elif tid == "hide;":
            hidden = trait.state not in ("null", "")
            tokens = leading(trait.type, ";", 5)
            hide_owner = (trait.state, tokens[4] if len(tokens) > 4 else "") if hidden else None
    # Properties: the outermost trait answers first in VASSAL, so fill outermost first.
    for trait in traits[:-1]:
        tid = trait.id
        if tid == "mark;":
            keys = items(trait.type[len("mark;"):], ",", most_items)
            values = items(trait.state, ",", most_items) if trait.state else []
            for index, key in enumerate(keys):
                if key:
                    properties.setdefault(key, values[index] if index < len(values) else "")
        elif tid == "PROP;":
            tokens = leading(trait.type, ";", 2)
            if len(tokens) > 1 and tokens[1]:
                properties.setdefault(tokens[1], trait.state)
        elif tid == "label;":
            tokens = leading(trait.type, ";", 17) + [""] * 19
            properties.setdefault(tokens[16] or "TextLabel", trait.state)
        elif tid in ("emb2;", "emb;"):
            layer = layer_of(trait, most_items)
            if layer.name:
                properties.setdefault(f"{layer.name}_Level", str(layer.level))
                properties.setdefault(f"{layer.name}_Name", layer.level_name)
                properties.setdefault(f"{layer.name}_Active", "true" if layer.active else "false")
    for key, value in basic.properties:
        properties.setdefault(key, value)
    layers.reverse()
    return PieceFacts(name, basic_name, image, basic, MappingProxyType(properties), tuple(layers),
                      masked, mask_name if masked or mask_name else None, hidden, mask_owner, hide_owner)


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

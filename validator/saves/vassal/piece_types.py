"""A piece's type string read once, and the facts its states then give.

Real saves repeat a few hundred type strings across thousands of pieces, and
one type string can hold tens of kilobytes of escaped traits.  Everything a
reader needs from a type (trait ids, the BasicPiece's image and name, the
keys of Markers, the formats of Text Labels, the levels of Layers, the
access of Masks) does not change while the game runs, so :class:`PieceType`
holds it, parsed once per distinct type string and kept in a small
least-recently-used cache by each replay.  A piece's facts are then its
type's plan applied to the few state elements the plan names: the states of
traits that say nothing a reader uses (menus, triggers, reports) are never
unescaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from validator.limits import DEFAULT_LIMITS

from .model import Layer, Trait
from .pieces import BasicState, PieceChainError, PieceFacts, TraitIds, basic_state, chain_view, trait_id
from .sequence import TooManyItems, items, java_int, leading, split

TYPE_CACHE_SIZE = 1024
"""Distinct piece types one replay keeps parsed (the largest real save has about 530)."""


@dataclass(frozen=True, slots=True)
class LayerType:
    """What an Embellishment's type says: its name, its level names, and the level a state without one takes.

    The level names stay in the one field they are written in (``names_field``,
    its own ``;`` level already unescaped): a Layer may name thousands of
    levels and a state shows one, so only that one is split out, when a state
    asks for it (:meth:`level_name`); :attr:`level_names` splits them all, for
    the few readers that list them.
    """

    name: str
    names_field: str
    """``emb2;``: the level-names field; ``emb;``: the whole own type, one ``image,name`` entry per level."""
    names_count: int
    """How many levels the field names (``emb2;``: its items; ``emb;``: its entries past the ninth token)."""
    level_count: int
    """How many levels the Layer has: ``emb2;`` pads its names with empty ones to the number of its images."""
    default_value: int
    old_layout: bool = False

    def level_name(self, level: int) -> str:
        """The name of 1-based ``level`` (empty past the named ones), as splitting every name would give it."""
        if not 0 < level <= self.names_count:
            return ""
        if not self.old_layout:
            return leading(self.names_field, ",", level)[level - 1]
        parts = leading(leading(self.names_field, ";", 9 + level)[8 + level], ",", 2)
        return parts[1] if len(parts) > 1 else ""

    @property
    def level_names(self) -> tuple[str, ...]:
        """Every level's name, built each time it is asked for (it is not kept)."""
        if not self.old_layout:
            names = split(self.names_field, ",") if self.names_count else []
        else:
            names = []
            for entry in split(self.names_field, ";")[9:]:
                parts = leading(entry, ",", 2)
                names.append(parts[1] if len(parts) > 1 else "")
        return tuple(names) + ("",) * (self.level_count - len(names))


@dataclass(frozen=True, slots=True)
class LabelType:
    """A Text Label's name format, its property name, and whether it shows an empty label."""

    name_format: str
    property_name: str
    shows_empty: bool


class PieceType(NamedTuple):
    """Everything one type string says, outermost trait first; trait i reads state element i."""

    ids: Sequence[str]
    """Each trait's id; from a type string, read only when asked for (the plan reads those it uses)."""
    own_types: Sequence[str]
    """Each trait's own type; from a type string, unescaped only when read."""
    image: str
    basic_name: str
    name_steps: tuple[tuple[int, object], ...]
    """Layers and labels innermost first, as each wraps the name of the traits inside it."""
    property_steps: tuple[tuple[int, str, object], ...]
    """Traits that give properties, outermost first (the outermost answers first in VASSAL)."""
    mask: tuple[int, str, str] | None
    """The outermost Mask: (index, mask name, access field)."""
    hide: tuple[int, str] | None
    """The outermost Invisible trait: (index, access field)."""
    trait_count: int
    """``len(ids)``, kept: every piece of the type asks for it."""


def _item_count(value: str, delimiter: str, most: int) -> int:
    """How many items :func:`items` would give for ``value`` (none for an empty one), refused as it refuses them."""
    if not value:
        return 0
    count = value.count(delimiter) + 1
    if count > most:
        raise TooManyItems(f"holds a list of {count:,} items, more than the list_items limit of {most:,}")
    return count - value.count("\\" + delimiter)      # a delimiter after a backslash is data: no new item


def layer_type(trait_id_: str, own_type: str, most_items: int = DEFAULT_LIMITS.list_items) -> LayerType:
    """An Embellishment's type (``emb2;`` and the old ``emb;`` layout)."""
    if trait_id_ == "emb2;":
        fields = leading(own_type, ";", 20)[1:] + [""] * 19
        images = _item_count(fields[15], ",", most_items)
        names = _item_count(fields[16], ",", most_items)
        return LayerType(fields[18], fields[16], names, max(images, names), -1 if fields[2] else 1)
    tokens = _item_count(own_type, ";", most_items)
    second = leading(own_type, ";", 2)
    activate_key = leading(second[1], ";", 1)[0] if len(second) > 1 else ""
    levels = max(tokens - 9, 0)
    return LayerType("", own_type, levels, levels, -1 if activate_key else 1, old_layout=True)


def layer_in_state(layer: LayerType, state: str) -> Layer:
    """The level a Layer's state shows: VASSAL keeps an inactive level as its negative."""
    if not state:
        value = layer.default_value
    elif "\\" in state or "'" in state:
        value = java_int(leading(state, ";", 1)[0], layer.default_value)
    else:                                       # nothing escaped or quoted: the first token is plain text
        value = java_int(state.partition(";")[0], layer.default_value)
    level = abs(value) if value != 0 else 1
    active = value > 0
    return Layer(layer.name, level, active, layer.level_name(value) if active else "", layer)


def parse_piece_type(type_string: str, most_traits: int = DEFAULT_LIMITS.traits,
                     most_items: int = DEFAULT_LIMITS.list_items, read_before: dict | None = None) -> PieceType:
    """The plan of one type string; a chain of more than ``most_traits`` raises :class:`PieceChainError`.

    Only the own types of the traits the plan reads are unescaped, and only
    their ids are read: one search finds them.  The other traits are
    located, and their ids read when a caller asks for them.  ``read_before``
    (one replay's, empty at first) keeps what Layers, Text Labels and Markers
    said, by their own type: the types of a save share their prototypes'
    traits, so most of these are read once per save, not once per type.
    """
    own_types = chain_view(type_string, most_traits + 1)
    if len(own_types) > most_traits:
        raise PieceChainError(f"its trait chain holds more than {most_traits:,} traits, the traits limit")
    return _plan(own_types, TraitIds(own_types), own_types.having_ids(_PLANNED), most_items,
                 read_before)


_PLANNED = ("basicName;", "emb2;", "emb;", "label;", "obs;", "hide;", "mark;", "PROP;")
"""The trait ids whose own types the plan reads (besides the innermost ``piece;``)."""


def plan_of(own_types: Sequence[str], most_items: int = DEFAULT_LIMITS.list_items) -> PieceType:
    """The plan of a chain already split into its traits' own types, outermost first."""
    ids = tuple(trait_id(own) for own in own_types)
    return _plan(own_types, ids, [(index, tid) for index, tid in enumerate(ids) if tid in _PLANNED], most_items)


_KEPT_TRAITS = 2048
_KEPT_LENGTH = 8192
"""One replay's ``read_before`` keeps at most this many own types, each at most this long (16 MB at worst)."""


def _kept(read_before: dict | None, own: str, read, *arguments):
    """``read(*arguments)``, the value kept for ``own`` when it was read before (own types start with their id)."""
    if read_before is None:
        return read(*arguments)
    found = read_before.get(own)
    if found is None:
        found = read(*arguments)
        if len(read_before) < _KEPT_TRAITS and len(own) <= _KEPT_LENGTH:
            read_before[own] = found
    return found


def _label_type(own: str) -> LabelType:
    tokens = leading(own, ";", 19) + [""] * 19
    return LabelType(tokens[12] or "$pieceName$ ($label$)", tokens[16] or "TextLabel", tokens[18] == "true")


def _marker_keys(own: str, most_items: int) -> tuple[str, ...]:
    return tuple(items(own[len("mark;"):], ",", most_items))


def _plan(own_types: Sequence[str], ids: Sequence[str], planned: list[tuple[int, str]], most_items: int,
          read_before: dict | None = None) -> PieceType:
    """The plan from the chain's own types, its ids, and (index, id) of each trait whose id is in ``_PLANNED``."""
    if ids[-1] == "piece;":
        basic_tokens = leading(own_types[-1], ";", 5) + [""] * 5
        image, basic_name = basic_tokens[3], basic_tokens[4]
    else:
        # createPiece puts a default BasicPiece (no image, no name) inside a chain whose innermost it cannot create.
        image, basic_name = "", ""
    last = len(ids) - 1
    read = {index: own_types[index] for index, _ in planned}
    for index, tid in planned:
        if tid == "basicName;":
            own = read[index]
            basic_name = leading(own, ";", 2)[1] if ";" in own else basic_name
            break
    layers: dict[int, LayerType] = {}
    labels: dict[int, LabelType] = {}
    name_steps: list[tuple[int, object]] = []
    mask = hide = None
    for index, tid in reversed(planned):        # innermost first, so outer traits wrap the name
        if index == last:
            continue
        own = read[index]
        if tid in ("emb2;", "emb;"):
            layers[index] = _kept(read_before, own, layer_type, tid, own, most_items)
            name_steps.append((index, layers[index]))
        elif tid == "label;":
            labels[index] = _kept(read_before, own, _label_type, own)
            name_steps.append((index, labels[index]))
        elif tid == "obs;":
            tokens = leading(own, ";", 7)
            mask = (index, tokens[5] if len(tokens) > 5 and tokens[5] else "?", tokens[6] if len(tokens) > 6 else "")
        elif tid == "hide;":
            tokens = leading(own, ";", 5)
            hide = (index, tokens[4] if len(tokens) > 4 else "")
    property_steps: list[tuple[int, str, object]] = []
    for index, tid in planned:
        if index == last:
            continue
        if tid == "mark;":
            own = read[index]
            property_steps.append((index, "mark", _kept(read_before, own, _marker_keys, own, most_items)))
        elif tid == "PROP;":
            tokens = leading(read[index], ";", 2)
            if len(tokens) > 1 and tokens[1]:
                property_steps.append((index, "prop", tokens[1]))
        elif tid == "label;":
            property_steps.append((index, "label", labels[index].property_name))
        elif tid in ("emb2;", "emb;") and layers[index].name:
            property_steps.append((index, "layer", layers[index]))
    return PieceType(ids, own_types, image, basic_name, tuple(name_steps), tuple(property_steps),
                     mask, hide, len(ids))


def _apply_level_name(level_name: str, inner: str) -> str:
    if not level_name:
        return inner
    parts = leading(level_name, "+", 2)
    if len(parts) > 1:
        return inner + parts[1] if parts[0] == "" else parts[0] + inner
    return parts[0]


_NO_BASIC = BasicState(None, 0, 0, ())
"""What a chain without its BasicPiece's state element says of it."""


def facts_of(piece_type: PieceType, states: list[str], most_items: int = DEFAULT_LIMITS.list_items) -> PieceFacts:
    """Name, image, properties, layers and mask/hide flags of a piece of this type in these states.

    ``states`` holds the state chain's elements outermost first; missing ones
    read as empty, as a trait whose state VASSAL never set.
    """
    count = len(states)

    def state(index: int) -> str:
        return states[index] if index < count else ""

    traits = piece_type.trait_count
    basic = basic_state(states[traits - 1]) if count >= traits else _NO_BASIC
    layers: dict[int, Layer] = {}
    name = piece_type.basic_name
    for index, step in piece_type.name_steps:
        if type(step) is LayerType:
            layer = layers[index] = layer_in_state(step, state(index))
            if layer.active:
                name = _apply_level_name(layer.level_name, name)
        else:
            label = state(index)
            if label or step.shows_empty:
                name = step.name_format.replace("$pieceName$", name).replace("$label$", label)
    properties: dict[str, str] = {}
    keep = properties.setdefault
    for index, kind, data in piece_type.property_steps:
        if kind == "mark":
            own_state = state(index)
            if not own_state:
                values = []
            elif most_items > 0 and "," not in own_state and "\\" not in own_state and "'" not in own_state:
                values = [own_state]                # one value, as items() gives it
            else:
                values = items(own_state, ",", most_items)
            if len(values) < len(data):
                values += [""] * (len(data) - len(values))
            for key, value in zip(data, values, strict=False):   # values past the keys are ignored
                if key:
                    keep(key, value)
        elif kind == "prop" or kind == "label":
            keep(data, state(index))
        else:
            layer = layers[index]
            properties.setdefault(f"{data.name}_Level", str(layer.level))
            properties.setdefault(f"{data.name}_Name", layer.level_name)
            properties.setdefault(f"{data.name}_Active", "true" if layer.active else "false")
    for key, value in basic.properties:
        properties.setdefault(key, value)
    masked, mask_name, mask_owner = False, None, None
    if piece_type.mask is not None:
        index, mask_name, access = piece_type.mask
        owner = leading(state(index), ";", 1)[0] if state(index) else "null"
        masked = owner not in ("null", "")
        mask_owner = (owner, access) if masked else None
    hidden, hide_owner = False, None
    if piece_type.hide is not None:
        index, access = piece_type.hide
        hidden = state(index) not in ("null", "")
        hide_owner = (state(index), access) if hidden else None
    ordered_layers = tuple(layers[index] for index in sorted(layers))
    return PieceFacts(name, piece_type.basic_name, piece_type.image, basic, MappingProxyType(properties),
                      ordered_layers, masked, mask_name if masked or mask_name else None, hidden, mask_owner,
                      hide_owner)


def piece_facts(traits: tuple[Trait, ...], most_items: int = DEFAULT_LIMITS.list_items) -> PieceFacts:
    """The facts of a chain already paired with its states (a module's piece slots and prototypes)."""
    return facts_of(plan_of(tuple(trait.type for trait in traits), most_items), [trait.state for trait in traits],
                    most_items)

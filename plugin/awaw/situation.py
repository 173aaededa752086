"""One position read the way chapters 11 and 44 need it, computed once and shared by every check.

``situation(position)`` takes the map's hexes (:mod:`plugin.awaw.hexes`) and
the facts as their table read them (:mod:`plugin.awaw.facts`), applies the
control facts, indexes the pieces by hex, and derives the control map with
partisans accounted for (11.61, 11.62).  It is built only for a save that
:mod:`plugin.awaw.validation` found usable, and kept in the position's
``derived`` memo.

Everything is linear in the number of hexes and pieces: each is visited a
fixed number of times, and neighbour look-ups go through the index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from validator.derived import memoised
from validator.facts import FactReading, read_position
from validator.model import MapData, Piece, Position

from plugin.awaw import pools
from plugin.awaw.facts import POSITION, fact_reading
from plugin.awaw.hexes import Hex, map_reading
from plugin.awaw.vocabulary import (
    AIR_TYPES,
    BUILDERS,
    CONSTRUCTION_PHASE,
    GROUND_TYPES,
    INSTALLATION_TYPES,
    NAVAL_TYPES,
    PARTISAN,
    PARTISAN_TYPE,
    SIDE_OF_FACTION,
)


@dataclass
class State:
    """The game-state facts, interpreted."""

    season: str = ""
    year: int | None = None
    at_war: set = field(default_factory=set)  # frozenset pairs
    conquered: dict = field(default_factory=dict)  # country -> conqueror
    surrendered: dict = field(default_factory=dict)  # power -> to whom
    sued_for_peace: set = field(default_factory=set)  # (power, theatre)
    rgt: int | None = None
    diplomatic: dict = field(default_factory=dict)  # country -> result
    occupation_policies: int = 0
    western_allied_results: int = 0
    russian_results: int = 0
    indian_subversion: int = 0
    moslem_unrest: dict = field(default_factory=dict)
    persian_route: str = "inactive"
    attacked: dict = field(default_factory=dict)  # minor -> set of powers
    associated: dict = field(default_factory=dict)
    war_declared: dict = field(default_factory=dict)
    country_controller: dict = field(default_factory=dict)
    objective_claims: dict = field(default_factory=dict)  # key -> count

    def at_war_with(self, first: str, second: str) -> bool:
        return frozenset((first, second)) in self.at_war

    def pool_state(self) -> pools.PoolState:
        return pools.PoolState(
            year=self.year, western_allied_results=self.western_allied_results, russian_results=self.russian_results,
            occupation_policy_results=self.occupation_policies, indian_subversion_results=self.indian_subversion,
            moslem_unrest=dict(self.moslem_unrest),
        )


def faction_of(power: str) -> str:
    """A builder's faction; "" for a neutral or unknown owner."""
    return BUILDERS.get(power, "")


# A power's side, looked up once here: the checks ask it thousands of times per save (a check
# walking many pieces may ask the mapping itself, sparing a call per piece).
SIDE_OF_POWER = MappingProxyType({power: SIDE_OF_FACTION.get(faction, "") for power, faction in BUILDERS.items()})


def side_of(power: str) -> str:
    """A builder's side, "axis" or "allies"; "" for a neutral or unknown owner."""
    return SIDE_OF_POWER.get(power, "")


def enemies(first: str, second: str) -> bool:
    """Powers of opposing sides: the Axis against the Allies (the reading of "enemy" Referee uses)."""
    first_side, second_side = side_of(first), side_of(second)
    return bool(first_side and second_side and first_side != second_side)


def friends(first: str, second: str) -> bool:
    return bool(side_of(first)) and side_of(first) == side_of(second)


def is_partisan(piece: Piece) -> bool:
    return piece.type == PARTISAN_TYPE


UNIT_TYPES = GROUND_TYPES | AIR_TYPES | NAVAL_TYPES


def is_unit(piece: Piece) -> bool:
    """A ground, air or naval unit, not a partisan and not a counter such as an airbase."""
    return piece.type in UNIT_TYPES


def owner(piece: Piece) -> str:
    return piece.attribute("builder") if is_partisan(piece) else piece.attribute("owner")


def placed_this_phase(piece: Piece) -> bool:
    return piece.attribute("placed-this-phase") == "true"


@dataclass
class Situation:
    """Everything the checks share about one position."""

    # The map and phase, not the position itself: the position keeps this reading in its
    # ``derived`` memo, and a reference back would make a cycle only the collector frees.
    map: MapData
    phase: str
    state: State
    hexes: dict[str, Hex]
    pieces_by_hex: dict[str, list[Piece]]
    partisans: list[Piece]  # every partisan, on the map or off it
    control: dict[str, str]  # effective controller where it differs from the regular one: "partisan" or a power
    control_lines: dict[str, int] = field(default_factory=dict)  # hex -> line of the fact that set its control
    claimed_partisan: dict[str, int] = field(default_factory=dict)  # hexes a 'control' fact says a partisan holds
    zoc_declared: bool = False
    zoc_listed: list = field(default_factory=list)  # units whose ZoC hexes the save lists
    # Read once per map and shared by every save on it (see plugin.awaw.hexes); never changed:
    map_hexes: dict = field(default_factory=dict)  # the map's own hexes (``hexes`` until a control fact)
    objective_hexes: tuple = ()  # the hexes with the objective feature, in map order
    area_countries: dict = field(default_factory=dict)  # map area -> the country it is part of (or itself)
    # Computed once the pieces are read, because nearly every check asks:
    partisans_on_map: list = field(default_factory=list)  # partisans with a location: those the rules judge
    placed: list = field(default_factory=list)  # partisans on the map marked placed-this-phase
    partisan_hexes: list = field(default_factory=list)  # hexes holding a partisan, in pieces_by_hex order
    _memo: dict = field(default_factory=dict, repr=False)  # answers several checks share (see ``shared``)

    # -- questions the checks ask ------------------------------------------------

    def hex_of(self, piece: Piece) -> Hex | None:
        return self.hexes.get(piece.location) if piece.location else None

    def effective_controller(self, hex_id: str) -> str:
        """Who controls a hex once partisans are accounted for: a power, "partisan", "neutral" or "none"."""
        return self.control.get(hex_id) or self.hexes[hex_id].controller

    def new_partisans(self) -> list[Piece]:
        """The partisans placed in this construction phase (a copy: callers may change it)."""
        return list(self.placed)

    def home_country(self, piece: Piece) -> str:
        """The country a partisan was built in, a map area that is part of a country read as that country."""
        home = piece.attributes.get("home", "")
        return self.area_countries.get(home, home)

    def shared(self, name: str, compute):
        """``compute(self)``, worked out once per position: for answers several checks ask for (pool groups)."""
        if name not in self._memo:
            self._memo[name] = compute(self)
        return self._memo[name]

    def in_construction_phase(self) -> bool:
        return self.phase == CONSTRUCTION_PHASE

    def units_at(self, hex_id: str) -> list[Piece]:
        return self.pieces_by_hex.get(hex_id, [])

    def zoc_hexes(self, piece: Piece) -> tuple[str, ...]:
        """The hexes a unit's ZoC covers: listed in the save, or its own hex and the six around it."""
        listed = piece.attribute("zoc-hexes")
        if listed:
            return tuple(listed.split())
        if piece.attribute("zoc") != "true" or not piece.location:
            return ()
        return (piece.location, *self.hexes[piece.location].neighbours)

    def zoc_over(self, hex_id: str) -> list[Piece]:
        """The units whose ZoC covers a hex: those around it marked zoc='true', and those listing it."""
        covering = [unit for around in (hex_id, *self.hexes[hex_id].neighbours) for unit in self.units_at(around)
                    if not unit.attribute("zoc-hexes") and hex_id in self.zoc_hexes(unit)]
        return covering + [unit for unit in self.zoc_listed if hex_id in self.zoc_hexes(unit)]

    def place(self, hex_id: str | None) -> str:
        return self.map.location_label(hex_id)

    def objective_tally(self) -> tuple[dict[str, int], list[str]]:
        """Objectives per effective controller, and the partisan-held ones counted for nobody (11.63)."""
        tally: dict[str, int] = {}
        held: list[str] = []
        control, hexes = self.control, self.hexes
        for hex_id in self.objective_hexes:
            controller = control.get(hex_id) or hexes[hex_id].controller  # self.effective_controller
            if controller == PARTISAN:
                held.append(hex_id)
            else:
                tally[controller] = tally.get(controller, 0) + 1
        return tally, held


# -- building the situation, once per position --------------------------------


def situation(position: Position) -> Situation:
    """The shared reading of ``position``, computed on first use and kept with the position."""
    return memoised(position, "awaw", lambda: _build(position))


def _build(position: Position) -> Situation:
    reading, facts = map_reading(position.map), fact_reading(position)
    # The map's own hexes are shared until a control fact replaces one (see _set_controller).
    built = Situation(position.map, position.phase, _state(position, facts), reading.hexes, {}, [], {},
                      map_hexes=reading.hexes, objective_hexes=reading.objective_hexes,
                      area_countries=reading.area_countries)
    _apply_control(built, facts)
    _index_pieces(position, built)
    _derive_control(built)
    return built


def _state(position: Position, facts: FactReading) -> State:
    season, year = read_position(POSITION, position)[0].get("turn", ("", None))

    def grouped(name: str) -> dict:
        powers: dict[str, set] = {}
        for country, power in facts.all(name):
            powers.setdefault(country, set()).add(power)
        return powers

    return State(
        season=season, year=year, at_war={frozenset(pair) for pair in facts.all("at-war")},
        conquered=dict(facts.all("conquered")), surrendered=dict(facts.all("surrendered")),
        sued_for_peace=set(facts.all("sued-for-peace")), rgt=facts.one("rgt"),
        diplomatic=dict(facts.all("diplomatic-result")),
        occupation_policies=facts.one("russian-occupation-policies", 0),
        western_allied_results=facts.one("western-allied-partisan-results", 0),
        russian_results=facts.one("russian-partisan-results", 0),
        indian_subversion=facts.one("indian-subversion-results", 0),
        moslem_unrest=dict(facts.all("moslem-unrest")), persian_route=facts.one("persian-brp-route", "inactive"),
        attacked=grouped("minor-attacked"), associated=grouped("minor-associated"),
        war_declared=grouped("minor-war-declared"), country_controller=dict(facts.all("country-controller")),
        objective_claims=dict(facts.all("objectives")),
    )


def _apply_control(built: Situation, facts: FactReading) -> None:
    """Area-wide control first, then single hexes, so that a hex's own fact wins; partisan claims are kept apart."""
    for entry in facts.values.get("area-control", ()):
        controller, areas = entry.value[0], set(entry.value[1])
        for hex_id, hex_info in list(built.hexes.items()):
            if not areas.isdisjoint(hex_info.regions):
                _set_controller(built, hex_id, controller, entry.line)
    for entry in facts.values.get("control", ()):
        controller, targets = entry.value
        for target in targets:
            if controller == PARTISAN:
                built.claimed_partisan[target] = entry.line
            else:
                _set_controller(built, target, controller, entry.line)


def _set_controller(built: Situation, hex_id: str, controller: str, line: int) -> None:
    """Give one hex the controller a fact names, for this position only.

    ``built.hexes`` starts as the map reading's own dict, shared by every save
    on the map; it is copied before the first change so that no save's
    control facts leak into another's.
    """
    if built.hexes is built.map_hexes:
        built.hexes = dict(built.map_hexes)
    built.hexes[hex_id] = built.hexes[hex_id]._replace(controller=controller)
    built.control_lines[hex_id] = line


def _index_pieces(position: Position, built: Situation) -> None:
    """Index the pieces by hex, in the order the save lists them, and note who declares or lists a ZoC."""
    by_hex = built.pieces_by_hex
    stack_at = by_hex.get
    partisan, listing_zoc = built.partisans.append, built.zoc_listed.append
    for piece in position.pieces:
        if piece.type == PARTISAN_TYPE:
            partisan(piece)
        elif "zoc-hexes" in piece.attributes:
            built.zoc_declared = True
            listing_zoc(piece)
        elif "zoc" in piece.attributes:
            built.zoc_declared = True
        location = piece.location
        if location is not None:
            stack = stack_at(location)
            if stack is None:
                by_hex[location] = [piece]
            else:
                stack.append(piece)
    built.partisans_on_map = [piece for piece in built.partisans if piece.location]
    built.placed = [piece for piece in built.partisans_on_map if placed_this_phase(piece)]
    holding = {piece.location for piece in built.partisans_on_map}
    built.partisan_hexes = [hex_id for hex_id in by_hex if hex_id in holding]


def _derive_control(built: Situation) -> None:
    """Hexes holding a partisan: held by the partisan, or by a friendly ground unit's power standing with it (11.61)."""
    for hex_id in built.partisan_hexes:
        pieces = built.pieces_by_hex[hex_id]
        partisans = [piece for piece in pieces if is_partisan(piece)]
        side = side_of(owner(partisans[0]))
        ground = [owner(piece) for piece in pieces if piece.type in GROUND_TYPES and side_of(owner(piece)) == side]
        if not ground:
            built.control[hex_id] = PARTISAN
        else:
            regular = built.hexes[hex_id].controller
            built.control[hex_id] = regular if regular in ground else ground[0]


def is_installation(piece: Piece) -> bool:
    return piece.type in INSTALLATION_TYPES

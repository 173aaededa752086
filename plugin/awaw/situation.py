"""One position read the way chapters 11 and 44 need it, computed once and shared by every check.

``situation(position)`` interprets the game-state facts, gives every hex its
country, features and regular controller, indexes the pieces by hex, and
derives the control map with partisans accounted for (11.61, 11.62).  The
same pass collects what makes a save unusable (``problems``), which the
plugin's ``validate_position`` hands to the reader (exit code 2).

Everything is linear in the number of hexes and pieces: each is visited a
fixed number of times, and neighbour look-ups go through the index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple

from validator.model import Location, MapData, Piece, Position
from validator.numbers import is_ascii_digits
from validator.quoting import name_a_few, quote
from validator.wording import noun_for

from plugin.awaw import pools
from plugin.awaw.vocabulary import (
    AIR_TYPES, BUILDERS, CONSTRUCTION_PHASE, CONTROLLER_WORDS, COUNTRY_NAMES, FACTIONS, FEATURES, GROUND_TYPES,
    INSTALLATION_TYPES, IRAQ_GROUP, MAJOR_POWERS, MIDDLE_EAST_AREAS, NAVAL_TYPES, NEUTRAL, NOBODY, PARTISAN,
    PARTISAN_TYPE, PIECE_TYPES, SEASONS, SIDE_OF_FACTION, SIDES,
)

Problem = tuple[int, str]

HEX_ATTRIBUTES = frozenset({"column", "row", "name", "terrain", "controller", "island", "sea", "features"})
AREA_ATTRIBUTES = frozenset({"part-of", "kind"})
MAP_ATTRIBUTES = frozenset({"game", "version", "grid", "layout"})
PARTISAN_ATTRIBUTES = frozenset({"builder", "faction", "home", "placed-this-phase"})
UNIT_ATTRIBUTES = frozenset({"owner", "zoc", "zoc-hexes", "placed-this-phase"})
_UNIT_TYPES = PIECE_TYPES - {PARTISAN_TYPE}
_PLAIN_UNIT_ATTRIBUTES = UNIT_ATTRIBUTES - {"zoc-hexes"}  # a unit listing its ZoC hexes is read the long way
BOOLEAN = {"true": True, "false": False}
# A count in a fact: leading zeros are harmless, and six digits are far beyond any count the game keeps.
_COUNT = re.compile(r"0*([0-9]{1,6})")
COUNT_RANGE = "a whole number from 0 to 999999"

# Every fact an A World at War save may give: name -> the shape of its value, for messages.
FACTS = {
    "at-war": "two major powers at war with each other, e.g. 'germany russia'",
    "conquered": "a country and the power that conquered it, e.g. 'france germany'",
    "surrendered": "a major power and the power, faction or side it surrendered to, e.g. 'italy allies'",
    "sued-for-peace": "the U.S. and a theatre, 'usa europe' or 'usa pacific'",
    "rgt": f"the RGT level, {COUNT_RANGE}",
    "diplomatic-result": "a country and its diplomatic result in effect, e.g. 'ukraine 6'",
    "russian-occupation-policies": "the number of Russian occupation policies results (44.32)",
    "western-allied-partisan-results": "the number of Western Allied partisan results (44.36)",
    "russian-partisan-results": "the number of Russian partisan results (44.37)",
    "indian-subversion-results": "the number of Indian Subversion results (44.34)",
    "moslem-unrest": "a Middle East area (egypt, iraq-group, persia) and the Moslem Unrest results assigned to it",
    "persian-brp-route": "'active' or 'inactive'",
    "minor-attacked": "a minor country and a major power that attacked it, e.g. 'greece italy'",
    "minor-associated": "a minor country and a major power it associated or allied with",
    "minor-war-declared": "a minor country and a major power that declared war on it",
    "country-controller": "a minor country and the major power controlling it, e.g. 'lebanon-syria britain'",
    "area-control": "a controller and the map areas all of whose hexes it controls, e.g. 'germany france'",
    "control": "a controller and the hexes it controls, e.g. 'germany 0303 0304'",
    "objectives": "a major power, faction or side and the objectives the save counts for it, e.g. 'axis 12'",
}
# Facts that hold one value: given again, they must say the same thing.
SINGLE_VALUED_FACTS = frozenset({
    "rgt", "russian-occupation-policies", "western-allied-partisan-results", "russian-partisan-results",
    "indian-subversion-results", "persian-brp-route",
})
# Facts that hold one value per country, power or area (their first word): repeated for a list of those,
# but one country cannot have two conquerors, nor one power two counts of objectives.
KEYED_FACTS = frozenset({
    "conquered", "surrendered", "diplomatic-result", "moslem-unrest", "country-controller", "objectives",
})


class Hex(NamedTuple):
    """A hex as the partisan rules see it (a named tuple: twenty thousand are built per read)."""

    id: str
    country: str  # the country for pools and 11.42 ("" at sea or off the known map)
    region: str  # the map area itself (eastern-poland, ukraine, ulster...)
    regions: frozenset  # the map area and every area it is part of, up to its country (kiev, ukraine, russia)
    features: frozenset
    island: bool
    sea: bool
    controller: str  # the regular controller: a builder, "neutral" or "none" (11.61: what it reverts to)
    neighbours: tuple
    line: int

    def has(self, feature: str) -> bool:
        return feature in self.features

    @property
    def ulster(self) -> bool:
        return "ulster" in self.features or "ulster" in self.regions


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


# A power's side, looked up once here: the checks ask it thousands of times per save.
_SIDE_OF_POWER = {power: SIDE_OF_FACTION.get(faction, "") for power, faction in BUILDERS.items()}


def side_of(power: str) -> str:
    """A builder's side, "axis" or "allies"; "" for a neutral or unknown owner."""
    return _SIDE_OF_POWER.get(power, "")


def enemies(first: str, second: str) -> bool:
    """Powers of opposing sides: the Axis against the Allies (the reading of "enemy" Referee uses)."""
    first_side, second_side = side_of(first), side_of(second)
    return bool(first_side and second_side and first_side != second_side)


def friends(first: str, second: str) -> bool:
    return bool(side_of(first)) and side_of(first) == side_of(second)


def is_partisan(piece: Piece) -> bool:
    return piece.type == PARTISAN_TYPE


def is_unit(piece: Piece) -> bool:
    """A ground, air or naval unit, not a partisan and not a counter such as an airbase."""
    return piece.type in GROUND_TYPES or piece.type in AIR_TYPES or piece.type in NAVAL_TYPES


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
    problems: list[Problem]
    control_lines: dict[str, int] = field(default_factory=dict)  # hex -> line of the fact that set its control
    claimed_partisan: dict[str, int] = field(default_factory=dict)  # hexes a 'control' fact says a partisan holds
    zoc_declared: bool = False
    zoc_listed: list = field(default_factory=list)  # units whose ZoC hexes the save lists
    # Read once per map and shared by every save on it (see _map_reading); never changed:
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

    def partisan_held(self, hex_id: str) -> bool:
        return self.control.get(hex_id) == PARTISAN

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
        for hex_id in self.objective_hexes:
            controller = self.effective_controller(hex_id)
            if controller == PARTISAN:
                held.append(hex_id)
            else:
                tally[controller] = tally.get(controller, 0) + 1
        return tally, held


# -- building the situation, once per position --------------------------------

_DERIVED_KEY = "awaw"


def situation(position: Position) -> Situation:
    """The shared reading of ``position``, computed on first use and kept with the position."""
    built = position.derived.get(_DERIVED_KEY)
    if built is None:
        built = position.derived[_DERIVED_KEY] = _build(position)
    return built


def _build(position: Position) -> Situation:
    problems: list[Problem] = list(_map_problems(position))
    state = State()
    _turn(position, state, problems)
    reading = _map_reading(position)
    problems.extend(reading.problems)
    # The map's own hexes are shared until a control fact replaces one (see _set_hex).
    built = Situation(position.map, position.phase, state, reading.hexes, {}, [], {}, problems,
                      map_hexes=reading.hexes, objective_hexes=reading.objective_hexes,
                      area_countries=reading.area_countries)
    _facts(position, built, problems)
    _pieces(position, built, problems)
    _derive_control(built)
    return built


def _on_map(map_data: MapData, line: int, problem: str) -> Problem:
    """A problem with the map file, at its own line: the map may be another file than the save."""
    where = f"the map {map_data.source}, line {line}" if line else f"the map {map_data.source}"
    return 0, f"{where}: {problem}"


def _map_problems(position: Position) -> Iterable[Problem]:
    map_data = position.map
    for name, value in map_data.attributes.items():
        if name not in MAP_ATTRIBUTES:
            yield _on_map(map_data, map_data.line, f"an A World at War map takes no attribute {quote(name)} "
                                                   f"(it accepts {', '.join(sorted(MAP_ATTRIBUTES))})")
        elif name == "game" and value != "awaw":
            yield _on_map(map_data, map_data.line, f"the map is for the game {quote(value)}, not 'awaw'; "
                                                   "give an A World at War map")
    circled: set[str] = set()
    for area in map_data.areas.values():
        for name in area.attributes:
            if name not in AREA_ATTRIBUTES:
                yield _on_map(map_data, area.line, f"the area {quote(area.id)} has an unknown attribute {quote(name)} "
                                                   f"(areas take {', '.join(sorted(AREA_ATTRIBUTES))})")
        parent = area.attributes.get("part-of")
        if parent is not None and parent not in map_data.areas and parent not in COUNTRY_NAMES:
            yield _on_map(map_data, area.line, f"the area {quote(area.id)} is part of {quote(parent)}, which is neither an "
                                               "area of the map nor a known country")
        _chain, circle = _part_of_chain(map_data, area.id)
        if circle and area.id == circle[0] and area.id not in circled:  # once per circle, at its first area
            circled.update(circle)
            yield _on_map(map_data, area.line, _circle_problem(circle))
    if _hexes_without_adjacency(map_data):
        yield _on_map(map_data, map_data.line, "no hex of the map has a neighbour, so no rule can tell which hexes "
                                               "touch (ZoCs, surrounded partisans); declare grid=\"hex\" with a layout "
                                               "and give each hex column and row, or list each hex's neighbours")


def _part_of_chain(map_data: MapData, area_id: str) -> tuple[list[str], list[str]]:
    """The area and every area it is part of, up to its country; and the circle part-of runs in, if any.

    part-of is followed as far as it goes (kiev, ukraine, russia), since an
    area that is part of a part of a country is in that country too.
    """
    chain = [area_id]
    while True:
        area = map_data.areas.get(chain[-1])
        parent = area.attributes.get("part-of") if area is not None else None
        if parent is None:
            return chain, []
        if parent in chain:
            return chain, chain[chain.index(parent):]
        chain.append(parent)


def _circle_problem(circle: list[str]) -> str:
    first = quote(circle[0])
    if len(circle) == 1:
        return f"the area {first} is part of itself; part-of must lead to a country, so remove it or name the country"
    return (f"the area {first} is part of {quote(circle[1])}, and part-of leads from there back to {first} "
            f"(the circle holds {name_a_few(circle)}), so it never reaches a country; remove part-of from the area "
            "that is the country")


def _hexes_without_adjacency(map_data: MapData) -> bool:
    """True when the map has two hexes or more and not one of them has a neighbour (no grid, no lists).

    A normal map answers at its first hex; only a map about to be refused is read to its end.
    """
    hexes = 0
    for location in map_data.locations.values():
        if location.kind == "hex":
            if location.neighbours:
                return False
            hexes += 1
    return hexes > 1


def _country(map_data: MapData, area_id: str | None) -> tuple[str, str, frozenset]:
    """A hex area's country (part-of followed to its end), the area itself, and every area between."""
    if not area_id:
        return "", "", frozenset()
    chain, _circle = _part_of_chain(map_data, area_id)
    return chain[-1], area_id, frozenset(chain)


class MapReading(NamedTuple):
    """What the rules read from a map alone; the same for every save that shares it."""

    hexes: dict  # hex id -> Hex, with the map's own controllers
    problems: list  # what makes the map unusable, as (line, problem) pairs
    objective_hexes: tuple  # hex ids with the objective feature, in map order (11.63 counts them for every save)
    area_countries: dict  # map area -> the country it is part of, or itself (partisans' home countries)


def _map_reading(position: Position) -> MapReading:
    """The map as the rules see it, built once per map object (many saves may share one map)."""
    map_data = position.map
    reading = map_data.derived.get(_DERIVED_KEY)
    if reading is None:
        problems: list[Problem] = []
        hexes = _hexes(map_data, problems)
        reading = map_data.derived[_DERIVED_KEY] = MapReading(
            hexes, problems, tuple(hex_id for hex_id, hex_info in hexes.items() if hex_info.has("objective")),
            {area.id: _part_of_chain(map_data, area.id)[0][-1] for area in map_data.areas.values()},
        )
    return reading


def _hexes(map_data, problems: list[Problem]) -> dict[str, Hex]:
    hexes: dict[str, Hex] = {}
    known_features = frozenset(FEATURES)
    feature_sets: dict[str, frozenset] = {}  # a map repeats a few feature lists many times
    countries: dict[str | None, tuple[str, str, frozenset]] = {}

    def at(location: Location, problem: str) -> None:
        problems.append(_on_map(map_data, location.line, f"the hex {quote(location.id)} {problem}"))

    for location in map_data.locations.values():
        if location.kind != "hex":
            continue
        attributes = location.attributes

        if not HEX_ATTRIBUTES.issuperset(attributes):
            for name in sorted(set(attributes) - HEX_ATTRIBUTES):
                at(location, f"has an unknown attribute {quote(name)} (hexes take area, neighbours, {', '.join(sorted(HEX_ATTRIBUTES))})")
        area = location.area
        if area not in countries:
            if area and area not in map_data.areas:
                at(location, f"lies in the area {quote(area)}, which the map does not declare with an <area>")
            else:
                countries[area] = _country(map_data, area)
        country, region, regions = countries.get(area, ("", "", frozenset()))
        listed = attributes.get("features", "")
        features = feature_sets.get(listed)
        if features is None:
            features = feature_sets[listed] = frozenset(listed.split())
            unknown = features - known_features
            if unknown:
                at(location, f"has the unknown {noun_for(len(unknown), 'feature')} {name_a_few(sorted(unknown))} "
                           f"(known: {', '.join(FEATURES)})")
                del feature_sets[listed]
        island, sea = attributes.get("island", "false"), attributes.get("sea", "false")
        if island not in BOOLEAN or sea not in BOOLEAN:  # rare: name each bad flag
            for flag, value in (("island", island), ("sea", sea)):
                if value not in BOOLEAN:
                    at(location, f"has {flag}={quote(value)}; use 'true' or 'false'")
        at_sea = sea == "true"
        controller = attributes.get("controller")
        if controller is None:
            controller = NOBODY if at_sea else (country if country in BUILDERS else NEUTRAL)
        elif not _is_controller(controller, allow_partisan=False):
            at(location, f"has the controller {quote(controller)}, which is not a major power, communist-china, 'neutral' or 'none'")
        hexes[location.id] = Hex(
            location.id, "" if at_sea else country, region, regions, features, island == "true", at_sea, controller,
            location.neighbours, location.line,
        )
    if not hexes:
        problems.append(_on_map(map_data, map_data.line, "the map has no hexes; an A World at War map is a hex map, "
                                                          "so give it <hex> elements"))
    return hexes


def _is_controller(value: str, allow_partisan: bool) -> bool:
    return value in BUILDERS or value in CONTROLLER_WORDS or (allow_partisan and value == PARTISAN)


_TURN = re.compile(r"(?i)\s*(winter|spring|summer|fall)[\s-]+([0-9]{4})\s*")


def _turn(position: Position, state: State, problems: list[Problem]) -> None:
    match = _TURN.fullmatch(position.turn or "")
    if not match:
        given = f"the turn {quote(position.turn)}" if position.turn else "the position gives no turn; it"
        problems.append((position.line, f"{given} should be a season ({', '.join(SEASONS)}) and a year, "
                                        "e.g. turn='spring 1942'"))
        return
    state.season, state.year = match.group(1).lower(), int(match.group(2))


def _facts(position: Position, built: Situation, problems: list[Problem]) -> None:
    # Area-wide control first, then single hexes, so that a hex's own fact wins.
    order = {"area-control": 1, "control": 2}
    first_given: dict[tuple[str, str], tuple[tuple, str, int]] = {}  # (fact, key) -> (meaning, value, line)
    for name in sorted(position.facts, key=lambda name: order.get(name, 0)):
        if name not in FACTS:
            problems.append((position.fact_line(name), f"the fact {quote(name)} is not an A World at War fact "
                                                        f"(known: {', '.join(FACTS)})"))
            continue
        once = name in SINGLE_VALUED_FACTS or name in KEYED_FACTS
        for value, line in position.fact_entries(name):
            words = value.split()
            problem = _fact(name, words, built, line)
            if problem:
                problems.append((line, f"the fact {name}={quote(value)} {problem}; expected {FACTS[name]}"))
            elif once:
                problem = _contradiction(name, words, value, line, first_given)
                if problem:
                    problems.append((line, problem))


def _contradiction(name: str, words: list[str], value: str, line: int, first_given: dict) -> str:
    """The problem with a fact that holds one value (per country, power or area) given again differently, or "".

    The last value would silently win, so the verdict would hang on the order
    of the facts; the same value given twice says nothing new and is accepted.
    """
    key = (name, words[0] if name in KEYED_FACTS else "")
    meaning = tuple((word.lstrip("0") or "0") if is_ascii_digits(word) else word for word in words)  # '060' says '60'
    first = first_given.setdefault(key, (meaning, value, line))
    if first[0] == meaning:
        return ""
    return (f"the fact {name}={quote(value)} contradicts {name}={quote(first[1])} given at line {first[2]}; "
            "keep the one that holds and remove the other")


def _count(word: str) -> int | None:
    """The number a fact's word gives, or None when it is not a whole number from 0 to 999999."""
    match = _COUNT.fullmatch(word)
    return int(match.group(1)) if match else None


def _known_country(word: str, map_data: MapData) -> bool:
    """A country the vocabulary knows, or an area of the map (a map may hold colonies and other areas)."""
    return word in COUNTRY_NAMES or word in map_data.areas


def _fact(name: str, words: list[str], built: Situation, line: int) -> str:
    """Record one fact value; the problem with it, or ""."""
    state = built.state
    pair = len(words) == 2
    if name in ("rgt", "russian-occupation-policies", "western-allied-partisan-results", "russian-partisan-results",
                "indian-subversion-results"):
        number = _count(words[0]) if len(words) == 1 else None
        if number is None:
            return f"is not {COUNT_RANGE}"
        attribute = {
            "rgt": "rgt", "russian-occupation-policies": "occupation_policies",
            "western-allied-partisan-results": "western_allied_results", "russian-partisan-results": "russian_results",
            "indian-subversion-results": "indian_subversion",
        }[name]
        setattr(state, attribute, number)
        return ""
    if name == "at-war":
        if not pair or any(word not in BUILDERS for word in words):
            return "does not name two known powers"
        if words[0] == words[1]:
            return "puts a power at war with itself"
        state.at_war.add(frozenset(words))
        return ""
    if name == "conquered":
        if not pair or words[1] not in MAJOR_POWERS:
            return "does not name a country and a major power"
        if not _known_country(words[0], built.map):
            return f"names {quote(words[0])}, which is neither a known country nor an area of the map"
        state.conquered[words[0]] = words[1]
        return ""
    if name == "surrendered":
        if not pair or words[0] not in MAJOR_POWERS or not (words[1] in BUILDERS or words[1] in FACTIONS or words[1] in SIDES):
            return "does not name a major power and a power, faction or side"
        if words[0] == words[1]:
            return "has a power surrender to itself"
        state.surrendered[words[0]] = words[1]
        return ""
    if name == "sued-for-peace":
        if not pair or words[0] != "usa" or words[1] not in ("europe", "pacific"):
            return "does not name the U.S. and a theatre (only the U.S. sues for peace)"
        state.sued_for_peace.add((words[0], words[1]))
        return ""
    if name == "diplomatic-result":
        result = _count(words[1]) if pair else None
        if result is None:
            return f"does not name a country and {COUNT_RANGE}"
        if not _known_country(words[0], built.map):
            return f"names {quote(words[0])}, which is neither a known country nor an area of the map"
        state.diplomatic[words[0]] = result
        return ""
    if name == "moslem-unrest":
        results = _count(words[1]) if pair else None
        if results is None or words[0] not in MIDDLE_EAST_AREAS:
            return f"does not name a Middle East area and {COUNT_RANGE}"
        state.moslem_unrest[words[0]] = results
        return ""
    if name == "persian-brp-route":
        if words not in (["active"], ["inactive"]):
            return "is neither 'active' nor 'inactive'"
        state.persian_route = words[0]
        return ""
    if name in ("minor-attacked", "minor-associated", "minor-war-declared", "country-controller"):
        if not pair or words[1] not in BUILDERS:
            return "does not name a country and a major power"
        if words[0] in MAJOR_POWERS:
            return f"names the major power '{words[0]}' where a minor country belongs"
        if not _known_country(words[0], built.map):
            return f"names {quote(words[0])}, which is neither a known country nor an area of the map"
        if name == "country-controller":
            state.country_controller[words[0]] = words[1]
        else:
            table = {"minor-attacked": state.attacked, "minor-associated": state.associated,
                     "minor-war-declared": state.war_declared}[name]
            table.setdefault(words[0], set()).add(words[1])
        return ""
    if name in ("control", "area-control"):
        if len(words) < 2 or not _is_controller(words[0], allow_partisan=name == "control"):
            return "does not start with a controller (a power, 'neutral', 'none'" + (", 'partisan'" if name == "control" else "") + ")"
        return _set_control(name, words[0], words[1:], built, line)
    if name == "objectives":
        count = _count(words[1]) if pair else None
        if count is None or not (words[0] in BUILDERS or words[0] in FACTIONS or words[0] in SIDES):
            return f"does not name a power, faction or side and {COUNT_RANGE}"
        state.objective_claims[words[0]] = count
        return ""
    return ""  # pragma: no cover - every name in FACTS is handled above


def _set_control(name: str, controller: str, targets: list[str], built: Situation, line: int) -> str:
    hexes = built.hexes
    if name == "area-control":
        areas = set(targets)
        unknown = areas - set(built.map.areas)
        if unknown:
            return f"names the {noun_for(len(unknown), 'area')} {name_a_few(sorted(unknown))}, which the map does not have"
        for hex_id, hex_info in list(hexes.items()):
            if not areas.isdisjoint(hex_info.regions):
                _set_controller(built, hex_id, controller, line)
        return ""
    unknown = [target for target in targets if target not in hexes]
    if unknown:
        return f"names the hex(es) {name_a_few(unknown)}, which the map does not have"
    for target in targets:
        if controller == PARTISAN:
            built.claimed_partisan[target] = line
        else:
            _set_controller(built, target, controller, line)
    return ""


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


def _pieces(position: Position, built: Situation, problems: list[Problem]) -> None:
    """Index the pieces by hex and collect what is wrong with each, in the order the save lists them.

    Most pieces of a big save are ordinary units with nothing wrong, so they
    take one cheap path (no call per piece); a partisan, or a unit with
    something to say, goes through :func:`_read_piece`.
    """
    hexes = built.hexes
    countries = set(COUNTRY_NAMES) | set(position.map.areas)
    owners = countries | set(BUILDERS) | {NEUTRAL}
    by_hex = built.pieces_by_hex
    for piece in position.pieces:
        location, attributes = piece.location, piece.attributes
        ordinary = (  # what _read_piece would find nothing wrong with, spelled out to spare a call per piece
            piece.type in _UNIT_TYPES and location in hexes and attributes.get("owner") in owners
            and _PLAIN_UNIT_ATTRIBUTES.issuperset(attributes)
            and attributes.get("zoc", "true") in BOOLEAN and attributes.get("placed-this-phase", "true") in BOOLEAN
        )
        if ordinary:
            if "zoc" in attributes:
                built.zoc_declared = True
        elif not _read_piece(piece, built, countries, problems):
            continue
        if location is not None:
            by_hex.setdefault(location, []).append(piece)
    built.partisans_on_map = [piece for piece in built.partisans if piece.location]
    built.placed = [piece for piece in built.partisans_on_map if placed_this_phase(piece)]
    holding = {piece.location for piece in built.partisans_on_map}
    built.partisan_hexes = [hex_id for hex_id in by_hex if hex_id in holding]


def _read_piece(piece: Piece, built: Situation, countries: set[str], problems: list[Problem]) -> bool:
    """Read a partisan or an unusual unit, adding its problems; False when it cannot stand on the map at all."""
    def at(problem: str) -> None:
        problems.append((piece.line, f"the piece {quote(piece.id)} {problem}"))

    if piece.type not in PIECE_TYPES:
        at(f"has the type {quote(piece.type)}, which is not an A World at War piece type "
           f"(known: {', '.join(sorted(PIECE_TYPES))})")
        return False
    if piece.location is not None and piece.location not in built.hexes:
        at(f"stands at {quote(piece.location)}, which is not a hex of the map")
        return False
    if piece.type == PARTISAN_TYPE:
        allowed = PARTISAN_ATTRIBUTES
        _read_partisan(piece, countries, at)
        built.partisans.append(piece)
    else:
        allowed = UNIT_ATTRIBUTES
        _read_unit(piece, built, countries, at)
    if not _plain_attributes(piece.attributes, allowed):
        _attribute_problems(piece, allowed, at)
    return True


def _read_partisan(piece: Piece, countries: set[str], at) -> None:
    attributes = piece.attributes
    builder = attributes.get("builder", "")
    if not builder:
        at("is a partisan without a builder; give builder='...' (the major power that built it)")
    elif builder not in BUILDERS:
        at(f"was built by {quote(builder)}, which is not a power that builds partisans ({', '.join(BUILDERS)})")
    elif attributes.get("faction") and attributes["faction"] != BUILDERS[builder]:
        at(f"is marked faction {quote(attributes['faction'])}, but its builder {builder} belongs to "
           f"the {BUILDERS[builder]} faction")
    home = attributes.get("home", "")
    if not home:
        at("is a partisan without a home country; give home='...' (the country it was built in)")
    elif home not in countries and home != IRAQ_GROUP:
        at(f"has the home country {quote(home)}, which is neither a known country nor an area of the map")


def _read_unit(piece: Piece, built: Situation, countries: set[str], at) -> None:
    attributes = piece.attributes
    piece_owner = attributes.get("owner", "")
    if piece.location is not None and not piece_owner:
        at("has no owner; give owner='...' (the major power, or the minor country, it belongs to)")
    elif piece_owner and piece_owner not in BUILDERS and piece_owner not in countries and piece_owner != NEUTRAL:
        at(f"belongs to {quote(piece_owner)}, which is neither a power nor a country of the map")
    listed = attributes.get("zoc-hexes", "")
    if listed and piece.location is None:
        at("is off the map (it has no location) but lists zoc-hexes; a unit that is not on the map exerts no ZoC, "
           "so give it the hex it stands in or remove zoc-hexes")
        return
    unknown = [hex_id for hex_id in listed.split() if hex_id not in built.hexes]
    if unknown:
        at(f"lists the ZoC hex(es) {name_a_few(unknown)}, which the map does not have")
    if attributes.get("zoc") or listed:
        built.zoc_declared = True
    if listed:
        built.zoc_listed.append(piece)


def _plain_attributes(attributes, allowed: frozenset) -> bool:
    """True when every attribute is one the piece takes and its flags read true or false: nearly every piece.

    A quick test so that only a piece with something wrong pays for
    :func:`_attribute_problems`, which says what, attribute by attribute.
    """
    return (allowed.issuperset(attributes) and attributes.get("placed-this-phase", "true") in BOOLEAN
            and attributes.get("zoc", "true") in BOOLEAN)


def _attribute_problems(piece: Piece, allowed: frozenset, at) -> None:
    for name, value in piece.attributes.items():
        if name not in allowed:
            kind = "a partisan" if is_partisan(piece) else "a unit or counter"
            at(f"has the attribute {quote(name)}, which {kind} does not take (known: {', '.join(sorted(allowed))})")
        elif name in ("placed-this-phase", "zoc") and value not in BOOLEAN:
            at(f"has {name}={quote(value)}; use 'true' or 'false'")


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

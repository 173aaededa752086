"""Tito's facts as data: zones, spheres of influence, unit sizes, phases, set-up and arrivals.

Everything here is a fact taken from the rulebook (zone names, case numbers,
unit designations and strengths) written as data; no rule text is quoted.
What the rulebook leaves to the printed map (garrison values, displays,
most zone borders) comes from the map file instead (plugin/tito/maps/tito-map.xml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

# -- the map (5.1, 5.2, 6.5) ------------------------------------------------

ZONES: Mapping[str, str] = MappingProxyType({
    "albania": "Albania",
    "baranya": "Baranya",
    "bosnia": "Bosnia",
    "carinthia": "Carinthia",
    "croatia": "Croatia",
    "dalmatia": "Dalmatia",
    "islands": "Islands",
    "istria": "Istria",
    "macedonia": "Macedonia",
    "montenegro": "Montenegro",
    "serbia": "Serbia",
    "slovenia": "Slovenia",
})

ISLANDS = "islands"

# Zone borders the rulebook itself states: the movement examples of 6.31 and
# 6.41, and the four zones 6.5 names as the only ways into the Islands.  The
# map file supplies the rest; it must agree with these pairs.
RULEBOOK_ADJACENCY: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        ("baranya", "serbia"), ("baranya", "bosnia"),              # 6.31
        ("bosnia", "carinthia"), ("bosnia", "croatia"), ("bosnia", "serbia"),
        ("carinthia", "istria"), ("carinthia", "slovenia"), ("carinthia", "croatia"),
        ("macedonia", "montenegro"), ("macedonia", "serbia"),      # 6.41
        ("islands", "istria"), ("islands", "slovenia"),            # 6.5
        ("islands", "croatia"), ("islands", "dalmatia"),
    )
)
ISLANDS_ENTRY_ZONES = frozenset({"istria", "slovenia", "croatia", "dalmatia"})  # 6.5

# The three triangles and three circles of a zone display (5.2), and the two
# boxes of an objective display (5.3).
ZONE_DISPLAY_SIDES = ("partisan", "axis", "chetnik")
OBJECTIVE_BOX_SIDES = ("yugoslav", "axis")
MOUNTAIN = "mountain"
HIDE_AWAY = "hide-away"
OBJECTIVE_BOX = "objective-box"
NEUTRAL_BOX = "neutral-box"

TERRAINS = ("city", "town", "market-town", "village", "industrial")
ALIGNMENTS = MappingProxyType({"P": "Partisan", "C": "Chetnik", "N": "Neutral"})  # 7.53C
DISPLAY_LABELS = MappingProxyType({
    "bulgarian-occupation": "serbia",  # 6.64C, 13.91D: only Serbian displays carry it
    "italian-pullback": "croatia",     # 10.21: only Croatian displays carry it
})

# -- the pieces (2.21-2.24, 3.0) -------------------------------------------

AXIS_NATIONALITIES = ("german", "italian", "croat", "serbian")
NATIONALITIES = AXIS_NATIONALITIES + ("bulgarian", "soviet", "partisan", "chetnik")
GUERRILLA_NATIONALITIES = ("partisan", "chetnik")
SIDES = ("axis", "yugoslav", "neutral")
ALLEGIANCES = MappingProxyType({"pro-yugoslav": "yugoslav", "pro-axis": "axis", "neutral": "neutral"})  # 7.2
BULGARIANS_CHANGE_SIDES_ON = 15  # 3.0: Axis through Game-Turn 14, Yugoslav from 15

UNIT_TYPES = (
    "infantry", "mountain-infantry", "mechanized-infantry", "panzer", "cavalry", "parachute",
    "guerrilla", "tito", "marker",
)
TITO = "tito"
MARKER = "marker"

# 6.22: what each unit size counts toward the stacking limit, in divisions.
# 6.24: guerrilla groups stack free.
SIZE_EQUIVALENTS: Mapping[str, Fraction] = MappingProxyType({
    "group": Fraction(0),
    "battalion": Fraction(1, 6),
    "regiment": Fraction(2, 6),
    "brigade": Fraction(3, 6),
    "division": Fraction(1),
    "corps": Fraction(1),  # Soviet corps count as divisions
})
SIZES_BY_NATIONALITY: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "german": ("battalion", "regiment", "brigade", "division"),
    "italian": ("battalion", "regiment", "brigade", "division"),
    "croat": ("battalion", "regiment", "brigade", "division"),
    "serbian": ("battalion", "regiment", "brigade", "division"),
    "bulgarian": ("battalion", "regiment", "brigade", "division"),
    "soviet": ("battalion", "regiment", "brigade", "division", "corps"),
    "partisan": ("group", "brigade", "division"),  # 7.6: divisions are Partisan only
    "chetnik": ("group", "brigade"),
})

STACKING_LIMIT = 7  # 6.21
BRIGADE_STRENGTH_GROUPS = MappingProxyType({"partisan": 30, "chetnik": 25})  # 7.62A, 7.62B
MOUNTAIN_POINTS_PER_VICTORY_POINT = 4  # 14.2B
GERMAN_LATE_TRANSFER_POINTS = 5  # 14.2C

# -- spheres of influence (6.61, 6.62, 6.64) --------------------------------

GUERRILLA_BARRED_ZONES = ("carinthia", "baranya")  # 6.61
GUERRILLAS_FREE_FROM = 15  # 6.61
GERMANS_FREE_FROM = 15  # 6.62

# 6.62 A-E by nationality, with the lettered item each comes from.
SPHERES: Mapping[str, tuple[str, frozenset[str]]] = MappingProxyType({
    "german": ("A", frozenset({"serbia", "bosnia"})),
    "italian": ("B", frozenset({"albania", "croatia", "dalmatia", "islands", "istria", "montenegro", "slovenia"})),
    "bulgarian": ("C", frozenset({"macedonia"})),
    "croat": ("D", frozenset({"bosnia", "croatia"})),
    "serbian": ("E", frozenset({"serbia"})),
})
ITALIAN_OPERATION_ZONES = frozenset({"serbia", "bosnia"})  # 6.64B
ITALIAN_OPERATION_LIMIT = 3  # 6.64B: divisions
BULGARIAN_OCCUPATION_DIVISIONS = ("25", "27")  # 6.64C, 13.91D
BULGARIAN_OCCUPATION_ZONE = "serbia"
PULLBACK_ZONE = "croatia"  # 10.21

# -- the sequence of play (4.2) ----------------------------------------------

# Phase ids a save may give, in the order a Game-Turn runs them; "setup" is
# the position before Game-Turn 1.  The anti-guerrilla phase is split into
# its segments because the reaction segment holds a bonus movement.
PHASES: tuple[str, ...] = (
    "setup",
    "allied-progress",
    "weather",
    "tito",
    "axis-reinforcement",
    "chetnik-collaboration",
    "italian-surrender",
    "anti-guerrilla-planning",
    "anti-guerrilla-reaction",
    "anti-guerrilla-deployment",
    "yugoslav-movement",
    "yugoslav-combat",
    "victory-points",
    "axis-movement",
    "axis-combat",
    "guerrilla-reinforcement",
    "guerrilla-status",
    "anti-guerrilla-redeployment",
    "game-turn-indication",
)
# Phases during which some units may still be on the move: the two Movement
# Phases, the Yugoslav bonus moves of the reaction segment (8.43) and the
# Operation Konstantin moves inside the Italian Surrender Phase (10.36).
MOVEMENT_IN_PROGRESS = frozenset({"yugoslav-movement", "axis-movement", "anti-guerrilla-reaction", "italian-surrender"})
PHASING_SIDES = ("axis", "yugoslav")
LAST_TURN = 17
UPRISINGS_FROM = 3  # 7.51

# -- game-state facts a save may carry -----------------------------------------

# Events that happen once; the value is the Game-Turn they happened in, or
# "true" (some earlier Game-Turn) or "false" (not yet).  Absent means not yet.
TRIGGER_FACTS: Mapping[str, str] = MappingProxyType({
    "partisan-brigade-strength": "7.62A: the Game-Turn the Partisans reached brigade-strength",
    "chetnik-brigade-strength": "7.62B: the Game-Turn the Chetniks reached brigade-strength",
    "forty-five-points-or-brigade": "14.4: the Game-Turn of the first 45 victory points or the first Yugoslav brigade",
    "italian-pullback": "10.21: the Game-Turn of the Italian Pullback",
    "italian-withdrawal": "10.22: the Game-Turn of the Italian Withdrawal",
    "italian-surrender": "10.3: the Game-Turn of the Italian Surrender",
    "allied-support-withdrawal": "7.22: the Game-Turn of the Allied Support Withdrawal",
    "tito-located": "9.42: the Game-Turn Tito was located",
})
TITO_STATES = ("not-arrived", "unidentified", "identified", "located", "withdrawn", "eliminated")
OTHER_FACTS: Mapping[str, str] = MappingProxyType(
    {
        "tito-state": "9.0: Tito's state, one of " + ", ".join(TITO_STATES),
        "victory-points": "14.1: the Yugoslav victory point total before this turn's Victory Point Stage (an integer)",
        "intrinsic-defence-eliminated": "8.53: a display whose intrinsic defence has been eliminated (repeat the fact "
        "for each)",
    }
)

ANTI_GUERRILLA_OPERATION = "anti-guerrilla-operation"
GUERRILLA_UNIT_FORMED = "guerrilla-unit-formed"
EVENT_KINDS = MappingProxyType(
    {
        ANTI_GUERRILLA_OPERATION: (
            "8.4: an operation declared this Game-Turn: area = the target zone, pieces = its units"
        ),
        GUERRILLA_UNIT_FORMED: "7.63: guerrilla brigades or divisions formed this Game-Turn: pieces = the new units",
    }
)

# -- set-up and arrivals (13.91, 13.92, 15.1, 15.2) -------------------------


@dataclass(frozen=True)
class Counter:
    """One counter of a list: nationality, designation, combat strength; size when the rules give it."""

    nationality: str
    designation: str
    strength: int
    size: str | None = None


def _counters(nationality: str, listing: str, size: str | None = None) -> tuple[Counter, ...]:
    """Parse "704:12, 714:12" into counters."""
    result = []
    for item in listing.split(","):
        designation, strength = item.strip().rsplit(":", 1)
        result.append(Counter(nationality, designation.strip(), int(strength), size))
    return tuple(result)


def _same_strength(nationality: str, strength: int, designations: str, size: str | None = None) -> tuple[Counter, ...]:
    """Counters of one strength: "Re, Lombard" at 6."""
    return tuple(Counter(nationality, name.strip(), strength, size) for name in designations.split(","))


# 15.1: Axis units start in any Objective Display of their zone.  The rules
# call the Italians divisions (6.64B); other sizes are on the counters.
AXIS_SETUP: Mapping[str, tuple[Counter, ...]] = MappingProxyType(
    {
        "serbia": _same_strength("german", 12, "704, 714, 717") + _same_strength("serbian", 1, "1, 2, 3, 4, 5"),
        "bosnia": _same_strength("german", 12, "718"),
        "slovenia": _same_strength("italian", 6, "Emilia, Marche, Alpi Gr, CD Alpi", "division"),
        "istria": _same_strength("italian", 6, "Murge, Messina", "division"),
        "croatia": _same_strength("italian", 6, "Bergamo, Sassari", "division"),
        "dalmatia": _same_strength("italian", 6, "Savoia, Zara", "division"),
        "montenegro": _same_strength(
            "italian",
            6,
            "Re, Lombard, Macerata, Isonzo, Ferrara, Taurinense, Perugia, Venezia, Puglia",
            "division",
        ),
        "albania": _same_strength("italian", 6, "Firenze, Arezzo, Parma", "division"),
    }
)
# 15.2: Chetnik groups in the Chetnik Hide-away of these zones, under Yugoslav control.
YUGOSLAV_SETUP: Mapping[str, int] = MappingProxyType({"serbia": 5, "montenegro": 2})


@dataclass(frozen=True)
class Arrival:
    """An entry of the schedule: when (a Game-Turn or a triggering event), what happens, to which counters."""

    when: str  # "2".."17" or a trigger fact name
    action: str  # "arrives", "transferred", "upgraded"
    counters: tuple[Counter, ...]
    item: str = ""  # the lettered item of 13.91 for the at-start lists
    placement: str = ""


AXIS_SCHEDULE: tuple[Arrival, ...] = (
    Arrival("italian-withdrawal", "arrives", _counters("german", "100L:10, 173:6, 297:12, 373:10, 92:6"), "A"),
    Arrival("italian-surrender", "arrives", _counters("german", "181:18, 264:15, 371:15, 1Cos:9"), "B"),
    Arrival("tito-located", "arrives", _counters("german", "501SS:1", "battalion"), "C"),
    Arrival(
        "forty-five-points-or-brigade",
        "arrives",
        _counters("bulgarian", "25:12, 27:12", "division"),
        "D",
        "Serbia, Axis boxes of Bulgarian Occupation displays only",
    ),
    Arrival("2", "arrives", _counters("german", "342:18, 125:3") + _counters("croat", "Gd:3, 1Ust:2, 2Ust:2, 3Ust:2")),
    Arrival("3", "arrives", _counters("german", "113:18") + _counters("croat", "4Ust:2, 5Ust:2")),
    Arrival("3", "transferred", _counters("german", "125:3")),
    Arrival(
        "4",
        "arrives",
        _same_strength("croat", 1, "1, 2, 3, 4, 5") + _same_strength("croat", 2, "1Mt, 2Mt, 3Mt, 4Mt, 5Mt"),
    ),
    Arrival("4", "transferred", _counters("german", "113:18")),
    Arrival("5", "transferred", _counters("german", "342:18")),
    Arrival("6", "arrives", _counters("german", "7SS:16")),
    Arrival("8", "arrives", _counters("german", "369:10") + _counters("croat", "6:1")),
    Arrival("8", "upgraded", _counters("german", "704:12, 714:12, 717:12, 718:12")),
    Arrival("8", "transferred", _counters("german", "117L:15")),
)

YUGOSLAV_SCHEDULE: tuple[Arrival, ...] = (
    Arrival(
        "2",
        "arrives",
        (Counter("partisan", "groups x10", 1, "group"), Counter("partisan", "Tito", 0)),
        placement="Serbia, Partisan Hide-away",
    ),
    Arrival("2", "arrives", (Counter("partisan", "groups x4", 1, "group"),), placement="Slovenia, Partisan Hide-away"),
    Arrival(
        "2", "arrives", (Counter("partisan", "groups x3", 1, "group"),), placement="Montenegro, Partisan Hide-away"
    ),
    Arrival(
        "15",
        "arrives",
        _counters("soviet", "75:30, 68:30, 64:30, 10Gd:33, 31Gd:33, 4Gd:42, 5:12"),
        placement="Serbia or Macedonia, Partisan locations",
    ),
    Arrival(
        "15",
        "arrives",
        _counters("bulgarian", "1:15, 2:15, 3:15, 4:15, 5:15, 7:15, 8:15, 6:18, 9:18"),
        placement="Macedonia, Partisan locations",
    ),
    Arrival(
        "15",
        "optional",
        _counters("soviet", "18Gd:33, 20Gd:33, 7:38"),
        placement="as the other Soviets; each costs victory points",
    ),
)

# 13.7, 14.2C: German units the schedule transfers out, by the Game-Turn of the transfer.
GERMAN_TRANSFERS: Mapping[str, int] = MappingProxyType(
    {
        counter.designation: int(arrival.when)
        for arrival in AXIS_SCHEDULE
        if arrival.action == "transferred"
        for counter in arrival.counters
    }
)

"""A Tito position of realistic size, generated: every zone populated, the full counter mix.

The counter mix is every distinct kind of counter in the shipped examples
(all its attributes but id, name and location), grouped by the side of the
box it stood in.  Each location of the prepared Tito map gets the next
:data:`PER_LOCATION` counters of its side's kinds in turn, so every zone
holds pieces and every kind of counter appears.

    PYTHONPATH=. python bench/tito_position.py FOLDER    (writes FOLDER/tito-position.xml)
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

from validator.saves.xml_reader import read_position_file

CHECKOUT = Path(__file__).resolve().parents[1]
EXAMPLES = CHECKOUT / "examples" / "tito"
MAP_HREF = CHECKOUT / "plugin" / "tito" / "maps" / "tito-map.xml"
NAMESPACE = "{urn:referee:save:1}"
OWN = ("id", "name", "location")
PER_LOCATION = 3


def counter_mix() -> dict[str, list[dict[str, str]]]:
    """Each box side -> one attribute set per distinct kind of counter the examples put in such a box."""
    mix: dict[str, dict[tuple, dict[str, str]]] = {}
    for example in sorted(EXAMPLES.glob("*.xml")):
        for piece in etree.parse(str(example)).getroot().iter(NAMESPACE + "piece"):
            location = piece.get("location")
            if not location:
                continue
            side = location.rsplit("/", 1)[-1]
            attributes = {name: value for name, value in piece.items() if name not in OWN}
            mix.setdefault(side, {}).setdefault(tuple(sorted(attributes.items())), attributes)
    return {side: list(kinds.values()) for side, kinds in mix.items()}


def write(folder: Path) -> Path:
    """The generated position in ``folder``, read back once so it is known to be a usable save."""
    folder.mkdir(parents=True, exist_ok=True)
    opening = EXAMPLES / "mid-game.xml"
    locations = read_position_file(opening).map.locations
    mix = counter_mix()
    pieces: list[str] = []
    turns = dict.fromkeys(mix, 0)
    for location_id in locations:
        side = location_id.rsplit("/", 1)[-1]
        kinds = mix.get(side, ())
        for _ in range(PER_LOCATION if kinds else 0):
            kind = kinds[turns[side] % len(kinds)]
            turns[side] += 1
            number = len(pieces)
            attributes = " ".join(f"{name}={quoteattr(value)}" for name, value in kind.items())
            pieces.append(f'    <piece id="c{number}" name="Counter {number}" {attributes} '
                          f'location={quoteattr(location_id)}/>')
    root = etree.parse(str(opening)).getroot()
    head = (f'<position xmlns="urn:referee:save:1" version="1" game="tito" scenario={quoteattr(root.get("scenario"))} '
            f'turn={quoteattr(root.get("turn"))} phase={quoteattr(root.get("phase"))} '
            f'phasing={quoteattr(root.get("phasing"))}>')
    facts = [f'  <fact name={quoteattr(fact.get("name"))} value={quoteattr(fact.get("value"))}/>'
             for fact in root.iterchildren(NAMESPACE + "fact")]
    text = "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head, *facts, f'  <map href="{MAP_HREF}"/>',
                      "  <pieces>", *pieces, "  </pieces>", "</position>", ""])
    path = folder / "tito-position.xml"
    path.write_text(text, encoding="utf-8")
    read_position_file(path)
    return path


if __name__ == "__main__":
    print(write(Path(sys.argv[1])))

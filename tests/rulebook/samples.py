"""Small rulebooks of our own in the three layouts the real texts use.

The game is invented (frogs and herons on a pond); only the layout follows
the real rulebooks.
"""

SPI_BULLETED = """\
Pond Wars Rulebook

Table of Contents

• Read Me First
• 1.0 Introduction
• 2.0 Hopping
  • 2.1 How Frogs Hop
  • 2.2 Crowding

Read Me First

Rules are grouped into numbered cases.

1.0 Introduction

Pond Wars is a game about frogs.

2.0 Hopping

General Rule: Frogs hop from pad to pad.

2.1 How Frogs Hop

Procedure: Hop each frog in turn.

• 2.11 A frog hops one pad (see 2.21).
• 2.12 A frog may not hop onto a heron:
  • A. unless the heron sleeps;
  • B. or the frog is a toad (see 2.12A).
  Note: Toads are frogs for this case.

Example of Hopping: a frog hops from the north pad to the east pad.

2.2 Crowding

• 2.21 No pad may hold more than four frogs (see 2.24).
• 2.22

  • A. Tadpoles count as half a frog.
  • B. Eggs do not count.

• Count the frogs at the end of each turn.

Score	Result
0–10	Herons win
11+	Frogs win

3.0 Notes

[2.21] (addition) Lily pads hold five frogs in spring.

17
"""

CAPITALS = """\
5. HERONS
5.1 OVERVIEW
5.2 HUNTING

5.1 OVERVIEW:
5.11 Herons hunt frogs as set out below.

5.2 HUNTING:
5.21 GENERAL: Herons hunt once per turn (rule 9).
5.22 RESTRICTIONS:
A. MARSH: Herons may hunt in the marsh.

• Only by day.

B.POND: Herons may hunt at the pond (5.22A).
5.23 POOLS: The heron pools are:

Heron Pool Table - 5.23

 

North

South

Pondia

1

1:2

Reedton

0

2
"""

DOTTED = """\
THE POND
7. SPECIAL RULES
7.1 Storks
Storks are rare. 7.1.1 Storks fly over herons. 7.1.2 Storks nest in reeds (see rule 12).
7.2 Rivalry
Some birds dislike others. 7.2.1 Effects of Rivalry 7.2.1.1 Rival birds never share a pad. 7.2.2 The rivals are: • Storks and herons. • Ducks and geese.
"""

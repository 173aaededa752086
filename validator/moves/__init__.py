"""Moves: what changed between two positions, and the positions a log or a chain of saves passes through.

``diff`` compares two positions piece by piece; ``steps`` turns a VASSAL log
into the positions after each step that was not undone; ``chains`` judges
several saves of one game in order.  Nothing here judges a rule: the runner
hands each difference to the game's move checks.
"""

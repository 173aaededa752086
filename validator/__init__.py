"""Referee: a rules reference and position validator for board wargames played in VASSAL."""

__version__ = "0.1.0"

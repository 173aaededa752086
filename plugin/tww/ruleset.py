"""The Third World War's rule set: every check module registers here."""

from validator.rules import RuleSet

rules = RuleSet("tww")

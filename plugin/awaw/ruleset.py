"""The RuleSet every A World at War check registers with."""

from validator.rules import RuleSet

rules = RuleSet("awaw")

"""The house rules a club's arbiters set on the web, kept in the ``house_rule`` table.

One row per game, case and check: setting a rule again replaces its severity
and reason (``ON CONFLICT ... DO UPDATE``), so a check never has two.  Rules
are validated by :func:`validator.house_rules.validated` before they are
written, and read back as :class:`~validator.house_rules.HouseRules` whose
rules link to their place on the game's house-rules page.
"""

from __future__ import annotations

from datetime import UTC, datetime

from validator import house_rules, store
from validator.house_rules import HouseRule, HouseRules

SOURCE = "this club"  # how a web report names where its house rules came from


def anchor(case: object, check: str) -> str:
    """The fragment of one rule on its game's page: ``rule-6.21-overstacked_location``."""
    return f"rule-{case}-{check}"


def page_path(game: str) -> str:
    return f"/house-rules/{game}"


def rule_url(game: str, case: object, check: str) -> str:
    return f"{page_path(game)}#{anchor(case, check)}"


def save(connection: store.Connection, game: str, case: str, check: str, severity: str, reason: str,
         arbiter: str) -> HouseRule:
    """Set one check's severity (validated first; an unknown name is a sentence naming the known ones)."""
    rule = house_rules.validated(game, case, check, severity, reason)
    with store.write_transaction(connection):
        connection.execute(
            "INSERT INTO house_rule (game, case_number, check_name, severity, reason, arbiter, set_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, case_number, check_name) DO UPDATE SET "
            "severity = excluded.severity, reason = excluded.reason, arbiter = excluded.arbiter, "
            "set_at = excluded.set_at",
            (rule.game, str(rule.case), rule.check, rule.severity, rule.reason, arbiter,
             datetime.now(UTC).isoformat(timespec="seconds")),
        )
    return rule


def remove(connection: store.Connection, game: str, case: str, check: str) -> bool:
    """Drop one rule, so the check is rated as Referee rates it; False when there was none."""
    with store.write_transaction(connection):
        removed = connection.execute(
            "DELETE FROM house_rule WHERE game = ? AND case_number = ? AND check_name = ? RETURNING game",
            (game, case, check),
        ).fetchall()
    return bool(removed)


def in_force(connection: store.Connection, game: str | None = None) -> HouseRules:
    """The club's rules (of one game, or of all), each linking to its place on the house-rules page.

    A row whose game, case or check the plugins no longer have is left out:
    it can no longer govern a result.
    """
    sql = "SELECT game, case_number, check_name, severity, reason FROM house_rule"
    rows = connection.execute(sql + (" WHERE game = ?" if game else "") + " ORDER BY game, case_number, check_name",
                              (game,) if game else ()).fetchall()
    rules = []
    for row in rows:
        try:
            rules.append(house_rules.validated(row[0], row[1], row[2], row[3], row[4],
                                               url=rule_url(row[0], row[1], row[2])))
        except house_rules.HouseRuleError:
            continue
    return HouseRules(tuple(rules), SOURCE)

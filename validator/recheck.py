"""Re-checking a stored report under the current Referee: does the verdict still stand?

A stored report records what it was checked with (:mod:`validator.provenance`)
and its record keeps the uploaded save and map (and names the kept VASSAL
module).  :func:`recheck` reads those same bytes again with today's readers,
game plugin and mapping, rates the result under the house rules the stored
report was made under (so only Referee's version differs), and compares:
whether the verdict changed, which violations appeared or went away (a
violation is its rule, location and pieces), and the versions and hashes
then and now.  Nothing is stored: the stored report stays the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator import games, house_rules, intake, provenance, recheck_moves, runner, stored_results
from validator.errors import InputError
from validator.limits import Limits
from validator.saves.uploaded_maps import UploadedMap


class RecheckError(InputError):
    """A stored report that cannot be checked again (its uploads removed, its game gone)."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


@dataclass(frozen=True)
class StoredCheck:
    """What a record kept: the report JSON and where the uploaded files are (``None``: not kept)."""

    report: dict
    game: str
    source_name: str
    save_path: Path | None
    map_path: Path | None = None
    map_name: str | None = None
    map_uploaded: bool = False
    module_path: Path | None = None
    viewer: str | None = None


def _key(result: dict) -> tuple:
    return result.get("rule"), result.get("location"), tuple(result.get("pieces") or ())


@dataclass(frozen=True)
class Recheck:
    """The stored report beside the report the current version gives on the same files."""

    then: dict
    now: dict
    judges_moves = False

    @property
    def verdict_changed(self) -> bool:
        return bool(self.then.get("legal")) != bool(self.now.get("legal"))

    @property
    def appeared(self) -> list[dict]:
        """Violations the current version finds that the stored report did not."""
        before = {_key(result) for result in self.then.get("violations", [])}
        return [result for result in self.now.get("violations", []) if _key(result) not in before]

    @property
    def disappeared(self) -> list[dict]:
        """Violations of the stored report the current version no longer finds."""
        after = {_key(result) for result in self.now.get("violations", [])}
        return [result for result in self.then.get("violations", []) if _key(result) not in after]

    def sentence(self) -> str:
        then = "legal" if self.then.get("legal") else "illegal"
        now = "legal" if self.now.get("legal") else "illegal"
        if self.verdict_changed:
            return f"The verdict changed: the position was {then} and is {now} under the current version."
        if self.appeared or self.disappeared:
            return (f"The verdict stands ({now}), but the violations differ: {len(self.appeared)} new, "
                    f"{len(self.disappeared)} no longer found.")
        return f"The verdict stands: the position is {now} under the current version, with the same violations."

    def to_json(self) -> dict:
        return {"verdict_changed": self.verdict_changed, "legal_then": bool(self.then.get("legal")),
                "legal_now": bool(self.now.get("legal")), "checked_with_then": self.then.get("checked_with"),
                "checked_with_now": self.now.get("checked_with"),
                "appeared": self.appeared, "disappeared": self.disappeared, "sentence": self.sentence()}


def stored_house_rules(report: dict) -> house_rules.HouseRules | None:
    """The house rules a stored report was made under, as far as the current checks still have them."""
    stored = report.get("house_rules")
    if not isinstance(stored, dict):
        return None
    rules = []
    for rule in stored.get("rules", []):
        try:
            rules.append(house_rules.validated(rule["game"], rule["case"], rule["check"], rule["severity"],
                                               rule["reason"], url=rule.get("url") or ""))
        except (house_rules.HouseRuleError, KeyError, TypeError):
            continue  # the check is gone or renamed: it can no longer govern a result
    return house_rules.HouseRules(tuple(rules), str(stored.get("source", "")))


def _public(error: InputError, stored: StoredCheck) -> str:
    """A reader's sentence with the kept module's path on the server said as what it is."""
    return str(error).replace(str(stored.module_path), "the kept module") if stored.module_path else str(error)


def recheck(stored: StoredCheck, limits: Limits) -> Recheck | recheck_moves.MovesRecheck:
    """Read the stored files again and check them with the current version; a sentence when it cannot."""
    if stored.save_path is None or not stored.save_path.is_file():
        raise RecheckError(f"The uploaded save of {stored.source_name} is no longer kept (it was removed), so "
                           "this report cannot be checked again; its stored verdict is the record.")
    if stored.game not in games.registry():
        raise RecheckError(f"The game {stored.game} is no longer installed, so this report cannot be checked again.")
    if stored_results.is_moves(stored.report):  # validator.web.move_reports: a verdict on moves
        try:
            now = recheck_moves.judged_again(stored, limits, stored_house_rules(stored.report))
        except InputError as error:
            raise RecheckError(f"The current version cannot read the stored files: {_public(error, stored)}") from None
        return recheck_moves.MovesRecheck(stored.report, now)
    game = games.get(stored.game)
    uploaded = None
    if stored.map_uploaded and stored.map_path is not None and stored.map_path.is_file():
        uploaded = UploadedMap(stored.map_path.read_bytes(), stored.map_name or "map.xml")
    submission = intake.Submission(stored.save_path.read_bytes(), stored.source_name, game=game.id,
                                   module=stored.module_path, map=uploaded, viewer=stored.viewer, limits=limits)
    try:
        reading = intake.read_submission(submission)
        report = provenance.stamped(runner.check(reading.position, game), submission, reading)
    except InputError as error:
        raise RecheckError(f"The current version cannot read the stored files: {_public(error, stored)}") from None
    rules = stored_house_rules(stored.report)
    if rules is not None:
        report = house_rules.apply(report, rules)
    return Recheck(stored.report, report.to_json())

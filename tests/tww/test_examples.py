"""The examples in examples/tww check as their names say."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples" / "tww"


def test_the_legal_example_exits_0(run_cli):
    code, out, err = run_cli("check", EXAMPLES / "legal.xml", "--game", "tww")
    assert code == 0 and err == "" and out.splitlines()[-1].endswith("legal, 4 findings.")


def test_the_illegal_example_exits_1_with_each_violation(run_cli):
    code, out, _ = run_cli("check", EXAMPLES / "illegal.xml", "--format", "json")
    assert code == 1
    import json

    report = json.loads(out)
    assert sorted(item["case"] for item in report["violations"]) == [
        "15.1.3", "15.2", "15.2.4", "15.3.2", "15.4.1.1", "15.4.1.2",
    ]
    assert all(item["rule"].startswith("tww:") and item["url"] for item in report["violations"])



"""A house rules file that is not XML Referee reads: the sentence says what to do, and ends as a sentence."""

from __future__ import annotations

from tests.house_rules.test_house_rules_cli import OVERSTACKED


def refusal(run_cli, tmp_path, text: str) -> str:
    path = tmp_path / "club.xml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli("check", OVERSTACKED, "--house-rules", path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    return err.strip()


def test_a_file_that_is_not_well_formed_says_to_correct_it(run_cli, tmp_path):
    err = refusal(run_cli, tmp_path, '<house-rules xmlns="urn:referee:house-rules:1">\n<game id="tito">\n</gam>\n')
    assert "line 3" in err and "not well-formed XML" in err
    assert err.endswith("correct the file there (docs/house-rules.md shows a whole house rules file) and read it "
                        "again.")


def test_a_doctype_is_refused_with_a_full_sentence(run_cli, tmp_path):
    err = refusal(run_cli, tmp_path, '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "a">]>\n'
                                     '<house-rules xmlns="urn:referee:house-rules:1"/>\n')
    assert "line 2" in err and err.endswith("which are refused; remove the declaration.")

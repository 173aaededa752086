"""`referee vassal dump` on the real samples: the documented JSON, exit codes."""

import json


def test_dump_json_contract(run_cli, samples):
    save = samples / "kassala" / "Default Setup.vsav"
    code, out, err = run_cli(
        "vassal", "dump", save, "--module", samples / "kassala" / "buildFile.xml", "--format", "json"
    )
    assert code == 0, err
    pieces = json.loads(out)["pieces"]
    assert len(pieces) == 23
    assert all({"id", "name", "map", "x", "y", "location", "properties"} <= piece.keys() for piece in pieces)
    assert {piece["map"] for piece in pieces} == {"Main Map"}


def test_dump_log_steps(run_cli, samples):
    log = samples / "zxvt" / "5x5_startup.vlog"
    code, out, _ = run_cli(
        "vassal", "dump", log, "--module", samples / "zxvt" / "buildFile", "--steps", "--format", "json"
    )
    header, *steps = [json.loads(line) for line in out.splitlines()]   # JSON Lines: the header, then each step
    assert code == 0 and header["position"] == "initial" and [step["index"] for step in steps] == [1, 2, 3, 4, 5, 6]


def test_unusable_file_exits_2(run_cli, tmp_path):
    bad = tmp_path / "broken.vsav"
    bad.write_bytes(b"PK\x03\x04 truncated")
    code, _, err = run_cli("vassal", "dump", bad)
    assert code == 2 and "broken.vsav" in err and "Traceback" not in err

"""The cycle collector is paused for one position's check and the start-up, and left to the exit only by
the ``referee`` process itself, never by a caller of :func:`validator.cli.main` that goes on running."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from validator import cli, collection

CHECKOUT = Path(__file__).resolve().parents[1]
TITO_EXAMPLE = CHECKOUT / "examples" / "tito" / "overstacked.xml"


def test_paused_turns_the_collector_off_and_back_on_even_when_the_block_fails():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collection.collector_paused():
        assert not gc.isenabled()
        with collection.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves the outer one's pause in force
        raise RuntimeError("the block failed")
    assert gc.isenabled()


def test_paused_leaves_a_collector_that_was_off_off():
    gc.disable()
    try:
        with collection.collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_check_reads_and_judges_its_position_with_the_collector_paused(monkeypatch, capsys):
    from validator import runner

    seen = []
    judged = runner.check

    def recording(position, *arguments, **options):
        seen.append(gc.isenabled())
        return judged(position, *arguments, **options)

    monkeypatch.setattr(runner, "check", recording)
    assert cli.main(["check", str(TITO_EXAMPLE)]) == 1
    assert seen == [False]
    assert gc.isenabled()
    assert "[6.21]" in capsys.readouterr().out


def test_main_given_its_words_freezes_nothing():
    """A caller that goes on running keeps its objects in the collector's sight.

    The count of frozen objects may fall during the call (an earlier test's
    prepared map was frozen, and frozen objects are still freed when dropped),
    so the test asks that it did not grow and that an object made just before
    the call is still among those the collector walks.
    """
    witness = [object()]  # a container: the collector tracks it
    frozen = gc.get_freeze_count()
    assert cli.main(["games", "list"]) == 0
    assert gc.get_freeze_count() <= frozen
    assert any(tracked is witness for tracked in gc.get_objects())  # frozen objects are not listed
    assert gc.isenabled()


def test_the_referee_process_leaves_its_objects_to_the_exit_after_its_exit_handlers():
    script = ("import atexit, gc, sys\n"
              "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
              "sys.argv = ['referee', 'check', sys.argv[1]]\n"
              "from validator.cli import main\n"
              "print('before:', gc.get_freeze_count())\n"
              "sys.exit(main())\n")
    completed = subprocess.run([sys.executable, "-c", script, str(TITO_EXAMPLE)], capture_output=True, text=True,
                               cwd=CHECKOUT)
    assert completed.returncode == 1, completed.stderr
    assert "before: 0" in completed.stdout and "[6.21]" in completed.stdout
    assert completed.stdout.rstrip().endswith("frozen at exit: True")

"""The help formatter of every command's parser, apart: a command line parsed without argparse never imports it."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.HelpFormatter):
    """argparse's own formatter, which measures the terminal only once it lays text out.

    argparse makes a formatter for every argument added, only to check its
    metavar, and its own measures the terminal each time (importing shutil,
    and with it bz2 and lzma, the first time): work a run that shows no help
    needs none of (issue 14's lean start-up).  The width and the help column
    are argparse's own figures, worked out as argparse does on first use.
    """

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None, **options) -> None:
        super().__init__(prog, indent_increment, max_help_position, width=0 if width is None else width, **options)
        self._asked_help_position = max_help_position
        self._measured = width is not None

    def _measure(self) -> None:
        import shutil

        self._measured = True
        width = shutil.get_terminal_size().columns - 2
        self._width = width
        self._max_help_position = min(self._asked_help_position, max(width - 20, self._indent_increment * 2))

    @property
    def _width(self) -> int:
        if not self._measured:
            self._measure()
        return self._given_width

    @_width.setter
    def _width(self, width: int) -> None:
        self._given_width = width

    @property
    def _max_help_position(self) -> int:
        if not self._measured:
            self._measure()
        return self._given_help_position

    @_max_help_position.setter
    def _max_help_position(self, position: int) -> None:
        self._given_help_position = position

"""Reading the README as a script: its shell commands, the output and exit code each one claims.

The conventions (the README is written to them, tests/test_readme.py runs it):

* Every shell block is a ```console block, except the test command, which is
  marked ``<!-- test-command -->`` and is not run (tests/test_project.py
  checks it is the one ``.ci/run`` runs).  A block of another shell language
  is an error, so no command escapes the test.
* In a console block a line starting with ``$ `` is a command; a command line
  ending in a backslash goes on on the next line.  The other lines up to the
  next command are the output the command shows.
* Shown output is the whole output, standard error included, line for line
  (trailing spaces ignored); a line ``...`` stands for any number of lines,
  and ``...`` inside a line for any text there (a folder that differs from
  one machine to the next).  A command with no lines shown under it may
  print anything.
* A comment (``#`` at the start of a word, outside quotes) is dropped before
  the command runs.  A command exits 0, unless its comment says
  ``exit code N``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHELL_LANGUAGES = {"console", "sh", "bash", "shell", "shell-session", "zsh"}
TEST_COMMAND_MARK = "<!-- test-command -->"
ANY_LINES = "..."
PROMPT = "$ "

_FENCE = re.compile(r"^```(\S*)\s*$")
_EXIT_CODE = re.compile(r"\bexit code (\d+)\b")


class TourError(ValueError):
    """The README does not follow the conventions above; the message names the line."""


@dataclass(frozen=True)
class Command:
    line: int
    """The README line the command starts on."""
    shown: str
    """The command as the README shows it, comment included."""
    script: str
    """What is run: the command without its comment."""
    exit_code: int
    output: tuple[str, ...] | None
    """The lines shown under it, or None when none are."""


@dataclass(frozen=True)
class Tour:
    commands: tuple[Command, ...]
    test_command: str | None


def read_tour(text: str) -> Tour:
    """Every command of the README in order, and its marked test command."""
    commands: list[Command] = []
    test_command = None
    for language, first_line, lines, marked in _shell_blocks(text):
        if marked:
            if test_command is not None:
                raise TourError(f"README line {first_line}: a second block is marked as the test command")
            test_command = "\n".join(lines).strip()
        elif language != "console":
            raise TourError(f"README line {first_line}: a ```{language} block; write commands in a ```console "
                            "block with '$ ' before each, so that the README test runs them")
        else:
            commands.extend(_console_commands(first_line, lines))
    return Tour(tuple(commands), test_command)


def _shell_blocks(text: str):
    """(language, line number of the first content line, lines, marked as the test command) per shell block."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        language = opening.group(1).lower()
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            raise TourError(f"README line {index + 1}: a code block that is never closed")
        if language in SHELL_LANGUAGES:
            before = [line for line in lines[:index] if line.strip()]
            marked = bool(before) and before[-1].strip() == TEST_COMMAND_MARK
            yield language, index + 2, lines[index + 1 : end], marked
        index = end + 1


def _console_commands(first_line: int, lines: list[str]):
    current: list | None = None  # [line, shown text, output lines]
    continuing = False
    for offset, line in enumerate(lines):
        number = first_line + offset
        if continuing:
            current[1] += "\n" + line
            continuing = line.endswith("\\")
        elif line.startswith(PROMPT):
            if current is not None:
                yield _command(*current)
            current = [number, line[len(PROMPT):], []]
            continuing = line.endswith("\\")
        elif current is None:
            if line.strip():
                raise TourError(f"README line {number}: output before any '$ ' command in a console block")
        else:
            current[2].append(line)
    if continuing:
        raise TourError(f"README line {first_line + len(lines) - 1}: a command goes on past the end of its block")
    if current is not None:
        yield _command(*current)


def _command(line: int, shown: str, output: list[str]) -> Command:
    while output and not output[-1].strip():
        output.pop()
    script_lines, comments = zip(*(split_comment(part) for part in shown.split("\n")), strict=True)
    found = [int(match.group(1)) for comment in comments for match in _EXIT_CODE.finditer(comment)]
    if len(found) > 1:
        raise TourError(f"README line {line}: the command's comment names more than one exit code")
    return Command(line=line, shown=shown, script="\n".join(script_lines).rstrip(), exit_code=found[0] if found else 0,
                   output=tuple(output) if output else None)


def split_comment(line: str) -> tuple[str, str]:
    """(code, comment) of one shell line: the comment starts at a ``#`` that begins a word outside quotes."""
    quote = None
    index = 0
    while index < len(line):
        character = line[index]
        if quote:
            if character == "\\" and quote == '"':
                index += 1
            elif character == quote:
                quote = None
        elif character == "\\":
            index += 1
        elif character in "'\"":
            quote = character
        elif character == "#" and (index == 0 or line[index - 1] in " \t;&|()"):
            return line[:index].rstrip(), line[index + 1 :].strip()
        index += 1
    return line, ""


def line_matches(pattern: str, line: str) -> bool:
    """One shown line against one printed line; ``...`` inside it stands for any text."""
    pattern, line = pattern.rstrip(), line.rstrip()
    if ANY_LINES not in pattern:
        return pattern == line
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split(ANY_LINES)), line) is not None


def output_matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` line for line, where a line ``...`` stands for any number of lines."""
    # reachable[j]: the shown lines read so far can match the first j printed lines
    reachable = [True] + [False] * len(actual)
    for pattern in expected:
        if pattern.strip() == ANY_LINES:
            for index in range(1, len(actual) + 1):
                reachable[index] = reachable[index] or reachable[index - 1]
        else:
            reachable = [False] + [reachable[index - 1] and line_matches(pattern, actual[index - 1])
                                   for index in range(1, len(actual) + 1)]
    return reachable[-1]


def first_difference(expected: tuple[str, ...], actual: list[str]) -> str:
    """A sentence pointing at the first shown line not found where the README puts it, for a failure message."""
    position = 0
    for pattern in expected:
        if pattern.strip() == ANY_LINES:
            continue
        found = next((index for index in range(position, len(actual)) if line_matches(pattern, actual[index])), None)
        if found is None:
            return f"the shown line {pattern.rstrip()!r} is not in the output after line {position}"
        position = found + 1
    return "every shown line is in the output, but lines not shown (and not stood for by '...') are there too"

"""``referee serve``: the reference pages and the check form, on Flask's development server."""

from __future__ import annotations

import argparse

from validator.commands.common import EXIT_OK, command


def register(commands) -> None:
    parser = command(commands, "serve", "serve the reference pages in a browser")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=5000, help="the port to listen on (default: %(default)s)")
    parser.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    from validator.web import create_app

    create_app().run(host=arguments.host, port=arguments.port)
    return EXIT_OK

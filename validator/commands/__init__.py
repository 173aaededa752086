"""One module per ``referee`` command, each with ``register(commands)``.

A module's top-level imports stay light (the standard library and
:mod:`validator.commands.common`): building the parser imports every command
module, so a reader, a plugin or the web app is imported inside the handler
that needs it, and ``referee --version`` or a small check starts quickly.
"""

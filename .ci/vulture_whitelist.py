"""Names vulture cannot see being used; read by vulture only, never imported.

Check functions (``@case``) and Flask views and filters (``@blueprint.…``) are
left out by ``--ignore-decorators`` in .ci/run; what remains is listed here,
each with why it stays.
"""

# Attributes set on library objects, read by the library itself.
trim_blocks  # jinja_env option (validator/web/__init__.py), read by Jinja
lstrip_blocks  # jinja_env option (validator/web/__init__.py), read by Jinja
finalize  # jinja_env option (validator/web/__init__.py: every printed text without e-mail addresses), read by Jinja
row_factory  # sqlite3 connection option (validator/info.py, validator/store.py), read by sqlite3
log_errors  # re2.Options option (validator/patterns.py), read by RE2

# A field of a protocol the game plugins fill in (validator/games.py), read by the report template.
picture_caption  # templates/reports/report.html

# Fields of a judged move (validator/web/reports.py JudgedMove), read by templates/reports/moves.html.
picture_before
picture_after
pictured
told
before_violations

# Fields of records that mirror VASSAL's formats whole, so a dump or a test can show every part
# of what was read (validator/saves/vassal/commands.py, grids.py, model.py, module.py).
old_state
old_map
old_x
old_y
old_under_id
old_value
class_name
level_names
reversible
use_grid_location
setup_stacks
ours  # validator/web/reading.py: a flag the case page template reads
listed_label  # validator/web/kept_modules.py: a kept module as templates/check/form.html lists it
map_sha256  # validator/provenance.py: a field read through dataclasses.asdict and templates/reports/report.html

# Public API used by the tests, not by the package itself.
is_legal  # validator/runner.py: the yes/no form of a check, in tests/engine
neighbour_coordinates  # validator/hexgrid.py: tests/engine/test_hexgrid.py
positions  # validator/saves/vassal/reader.py: replay of a logged game, tests/vassal
final  # validator/saves/vassal/reader.py: the position at the end of a log, tests/vassal
rivals_of  # plugin/tww/rivals.py: tests/tww/test_rivalry.py

# The Yugoslav half of Tito's arrival schedule (13.9), the counterpart of AXIS_SCHEDULE:
# transcribed for an arrivals check that no code runs yet.
YUGOSLAV_SCHEDULE  # plugin/tito/facts.py

# Settings gunicorn reads by name from validator/web/gunicorn_config.py (docs/deploying.md).
bind
workers
worker_class
timeout
graceful_timeout
keepalive
max_requests
max_requests_jitter
limit_request_line
limit_request_fields
limit_request_field_size

# pickle calls a Pickler subclass's reducer_override for each object (validator/prepared_maps.py).
reducer_override

# The rule that pairs a type's traits with a state's elements, which the sequence tests check directly;
# the replay pairs them through its parsed piece types (validator/saves/vassal/piece_types.py).
parse_traits
# Flask calls a session interface's get_cookie_secure and uses the app's session_interface (validator/web/arbiters.py).
get_cookie_secure
session_interface
# A ruling's fields the ruling page shows (templates/arbitration/ruling.html).
updated_at
review_note
# Which re-check a comparison is, for the re-check page's template (templates/case_file_records/recheck.html).
judges_moves

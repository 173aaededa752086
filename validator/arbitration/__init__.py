"""A club's arbitration records: arbiters, case files, comments, ruling requests and rulings.

Each module keeps one kind of record in the instance database (tables in
``validator.store.MIGRATIONS``) and takes an open connection, so the command
line, the web app and the tests share one set of functions.
"""

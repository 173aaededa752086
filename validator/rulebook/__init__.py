"""Importing plain-text case-system rulebooks: structure, tables, references, repairs."""

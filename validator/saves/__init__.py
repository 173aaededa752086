"""Readers that turn the files players exchange into positions."""

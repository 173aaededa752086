"""The in-tree game plugins: one package per game, each exposing ``game``."""

"""System `jongrogue`: the rules core of 雀ローグEZプラス JongRogue EZ Plus (spec ``jongrogue.md``).

:class:`~companion.systems.jongrogue.game.Game` takes tiles and choices with
``push``/``pop`` and tells what it asks for next; the tables and the [DEFAULT]
numbers are the TOML files under ``data/``.
"""

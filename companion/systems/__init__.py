"""The game systems, one package each: a pure engine, its data and its quick-reference.

- :mod:`companion.systems.jongrogue`: 雀ローグEZプラス JongRogue EZ Plus (spec ``jongrogue.md``).
- :mod:`companion.systems.events`: seed 001's dungeon event tables (spec §1 of
  ``dice-systems.md``).

A system imports only the shared dice layer (:mod:`companion.dice`),
:mod:`companion.errors` and the standard library: no hardware, clock or global
random (``docs/architecture.md``).
"""

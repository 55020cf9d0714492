"""Rule systems played with dice; each is one module plus its tables in ``companion/dice/data``.

- :mod:`companion.dice.systems.events`: seed 001's dungeon event tables (spec §1).
"""

"""The modes of the play session, one per game system at the table.

- :mod:`~companion.app.modes.jongrogue`: a game of 雀ローグEZプラス JongRogue EZ Plus.
- :mod:`~companion.app.modes.dice_tray`: the dice tray (seed 001's event tables, dice rolls).
"""

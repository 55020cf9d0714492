"""The play session: one loop hosting a mode, and what every mode shares.

- :mod:`~companion.app.session.mode`: the interface a mode implements (asks, answers).
- :mod:`~companion.app.session.host`: the loop, saving and the log.
- :mod:`~companion.app.session.controls`: presses, menus, confirming a read.
- :mod:`~companion.app.session.reads`, :mod:`~companion.app.session.rolls`: tiles and
  dice from the table (or the companion).
- :mod:`~companion.app.session.save`, :mod:`~companion.app.session.log`: the save file
  and the ``--log`` file.

The modes themselves are in :mod:`companion.app.modes`.
"""

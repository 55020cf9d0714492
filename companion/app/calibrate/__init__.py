"""The calibration flows of ``companion calibrate``: camera, RFID tray and dice reader.

Each module registers its own sub-command (see :mod:`companion.app.commands.calibrate`)
and saves what it learnt in the user's config folder.
"""

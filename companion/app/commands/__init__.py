"""The ``companion`` command's sub-commands, one module each, listed in :mod:`companion.app.cli`.

Each module exposes ``register(subparsers)``, which adds its parser and sets
``func``; the work itself lives in the systems, the adapters and the session.
"""

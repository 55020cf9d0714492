"""JongRogue tray firmware logic: protocol v1 framing and the slot debouncer.

Pure MicroPython-compatible Python: no ``machine``, no clock of its own. The
board file (``main.py``) feeds it reader objects, the time and the serial
bytes, so the same code runs under CPython in the tests and in the simulator.
"""

"""Wiring of the tray: edit this file to match your soldering, then copy it to the Pico.

All readers share SPI0 and one reset line; each has its own chip-select pin.
The order of CS_PINS is the order of the slots in protocol v1: the host maps
slot 0 to the draw slot and 1..4 to the room's top-left, top-right,
bottom-left and bottom-right tiles (``companion.hw.ports.Slot``).
"""

SPI_ID = 0
SPI_BAUDRATE = 1_000_000  # long ribbon cables to five readers: keep it slow
SCK_PIN = 18
MOSI_PIN = 19
MISO_PIN = 16
RST_PIN = 22
CS_PINS = (17, 20, 21, 26, 27)

HEARTBEAT_MS = 1000
PLACE_AFTER = 2  # polls in a row that must see a tag before it counts as placed
REMOVE_AFTER = 3  # polls in a row that must miss it before it counts as removed
FAIL_AFTER = 3  # chip errors in a row before the reader is reported down
RETRY_MS = 1000  # how often a downed reader is re-initialised
# Misses a tag at the edge of the field may have among the polls at power-up and still be
# in the first snapshot: 6 polls of each reader (jrtray.logic Tray.boot_rounds), about
# 0.5 s with five readers, at most 0.8 s when readers do not answer.
BOOT_MISSES = 2
# Resets the board when the loop stops feeding it. A poll takes at most about 0.1 s (a
# reader's soft reset waits 50 ms); the RP2040's longest is 8388 ms.
WATCHDOG_MS = 8000
# A crash resets the board; after CRASH_LIMIT crashes in a row (none CRASH_FORGET_MS
# after its start) it stays at the REPL, with the watchdog stopped, for a person or
# mpremote to mend it (firmware/README.md).
CRASH_LIMIT = 3
CRASH_FORGET_MS = 30_000

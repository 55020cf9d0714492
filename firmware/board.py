"""Wiring of the tray: edit this file to match your soldering, then copy it to the Pico.

All readers share SPI0 and one reset line; each has its own chip-select pin.
The order of CS_PINS is the order of the slots in protocol v1: the host maps
slot 0 to the draw slot and 1..4 to the room's top-left, top-right,
bottom-left and bottom-right tiles (``companion.hw.ports.Slot``), as the player
sees the tray from above with its USB notch towards them (hardware/README.md).

Only what a maker may change lives here; the firmware's own constants (the watchdog,
the crash count, the power-up polls) are in main.py, so a board.py kept from an older
firmware still runs the new one.
"""

SPI_ID = 0
SPI_BAUDRATE = 1_000_000  # long ribbon cables to five readers: keep it slow
SCK_PIN = 18
MOSI_PIN = 19
MISO_PIN = 16
RST_PIN = 22
CS_PINS = (17, 20, 21, 26, 27)

# At most 2000 (HEARTBEAT_LIMIT_MS in main.py, checked at start): the companion takes a
# tray silent for 3 s as gone and reconnects.
HEARTBEAT_MS = 1000
PLACE_AFTER = 2  # polls in a row that must see a tag before it counts as placed
REMOVE_AFTER = 3  # polls in a row that must miss it before it counts as removed
FAIL_AFTER = 3  # chip errors in a row before the reader is reported down
RETRY_MS = 1000  # how often a downed reader is re-initialised

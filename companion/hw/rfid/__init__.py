"""RFID tile readers: the tray of MFRC522 readers (protocol v1) and a single RDM6300.

Modules: ``protocol`` (line framing, CRC, LineReader), ``link`` (a serial port
that reopens itself), ``tray`` and ``rdm6300`` (the two TileReader backends),
``events`` (placed/removed events and their slot readings), ``tagmap`` (the
UID → tile file), ``wallcheck`` (reads against the tile ledger, JR-WALL-1) and
``simulator`` (a tray on a pseudo-terminal running the real firmware logic).
"""

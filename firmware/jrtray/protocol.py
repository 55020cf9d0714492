"""Protocol v1 line framing, tray side (see PROTOCOL.md).

A line is ``J1 <seq> <TYPE> [<arg> ...] *<CRC>\\n``; CRC is CRC-16/CCITT-FALSE
of the bytes before `` *``, as four upper-case hex digits.
"""

VERSION = 1
MAGIC = "J1"
MAX_LINE = 200
CRC_DIGITS = "0123456789ABCDEF"  # PROTOCOL.md: "as 4 upper-case hex digits"


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def frame(seq, kind, args=()):
    """One framed line (with its newline) as a str."""
    body = MAGIC + " " + str(seq) + " " + kind
    for arg in args:
        body += " " + arg
    return f"{body} *{crc16(body.encode()):04X}\n"


def parse(line):
    """``(seq, kind, args)`` of a framed line, or an error code string.

    Junk in front of the line (line noise) is skipped: every ``J`` is tried as
    the start and the first one whose CRC checks wins. The error codes are the
    ones the tray reports back: ``BAD_LINE``, ``BAD_VERSION`` and ``BAD_CRC``.
    """
    line = line.strip()
    verdict = "BAD_LINE"
    start = line.find(b"J")
    while start >= 0:
        try:
            parsed = _parse_from(line[start:].decode())
        except UnicodeError:
            parsed = "BAD_LINE"
        if not isinstance(parsed, str):
            return parsed
        if verdict == "BAD_LINE":
            verdict = parsed
        start = line.find(b"J", start + 1)
    return verdict


def _parse_from(text):
    star = text.rfind(" *")
    if star < 0:
        return "BAD_LINE"
    body = text[:star]
    words = body.split()
    if len(words) < 3:
        return "BAD_LINE"
    if words[0] != MAGIC:
        return "BAD_VERSION" if words[0][1:].isdigit() else "BAD_LINE"
    crc_text = text[star + 2:]
    # int(..., 16) alone took "0x57F", " 57F", "+57F" and lower case (reviewr67 NIT 1):
    # the host refuses them too (companion/hw/rfid/protocol.py).
    if len(crc_text) != 4 or any(c not in CRC_DIGITS for c in crc_text):
        return "BAD_LINE"
    try:
        crc = int(crc_text, 16)
        seq = int(words[1])
    except ValueError:
        return "BAD_LINE"
    if crc16(body.encode()) != crc:
        return "BAD_CRC"
    return seq, words[2], words[3:]

"""Minimal MFRC522 driver: read the UID (4, 7 or 10 bytes) of one ISO 14443A tag.

Only what the tray needs: wake a tag (WUPA, so a tag we halted last poll
answers again), run the anticollision/select cascade, halt it. Register names
follow the NXP MFRC522 datasheet (rev 3.9). This is the only firmware file that
talks to the chip; ``jrtray.logic`` just calls ``read_uid()`` and ``init()``.
"""

import time

COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
BIT_FRAMING = 0x0D
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Timer reload: 10 ticks of 0.5 ms (init). Read back on every poll: a chip that restarted
# (a brief supply dip) holds its reset value 0 there again, and its antenna is off (D1).
TIMER_TICKS = 10
ANTENNA_ON = 0x03  # TxControlReg Tx1RFEn | Tx2RFEn
FIELD_READY_MS = 5  # a tag's time to wake in a field just switched on (init)

CMD_IDLE = 0x00
CMD_CALC_CRC = 0x03
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

# read_uid's answer when two or more tags answered WUPA or the anticollision at once (ErrorReg
# CollErr): two tiles stacked on one slot. Not None ("no tag"): the tray must not take the
# tile that was there for lifted. The same value as jrtray.logic.COLLISION.
COLLISION = "collision"
COLL_ERR = 0x08

PICC_WUPA = 0x52
PICC_HLTA = 0x50
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04  # SAK bit: the UID is not complete, another cascade level follows
SELECT_LEVELS = (0x93, 0x95, 0x97)


class MFRC522:
    """One reader on a shared SPI bus, selected by its own chip-select pin."""

    def __init__(self, spi, cs, rst=None):
        self._collided = False  # the last transceive ended in a bit collision
        self._answered = False  # something answered the last transceive, garbled or not
        # One SPI frame (address, data) out and in, reused: a poll makes some 60 register
        # accesses, and a fresh bytes object each made the garbage collector's pauses
        # land in the middle of polls.
        self._out = bytearray(2)
        self._in = bytearray(2)
        self.spi = spi
        self.cs = cs
        self.cs.value(1)
        if rst is not None:
            rst.value(1)
        self.init()

    # -- registers ------------------------------------------------------

    def _write(self, reg, value):
        self._out[0] = (reg << 1) & 0x7E
        self._out[1] = value
        self.cs.value(0)
        self.spi.write(self._out)
        self.cs.value(1)

    def _read(self, reg):
        # The datasheet's SPI read frame: the address byte, then 0x00 while the
        # chip clocks the register's value out.
        self._out[0] = ((reg << 1) & 0x7E) | 0x80
        self._out[1] = 0
        self.cs.value(0)
        self.spi.write_readinto(self._out, self._in)
        self.cs.value(1)
        return self._in[1]

    def _set_bits(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear_bits(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask)

    # -- chip -----------------------------------------------------------

    def init(self):
        """Soft-reset and configure; raise OSError when nothing answers on the bus."""
        self._write(COMMAND, CMD_SOFT_RESET)
        time.sleep_ms(50)
        self._check_alive()
        # Timer: auto-start after each transmission, 0.5 ms per tick, 10 ticks:
        # a tag answers in well under 1 ms, and an empty slot costs only 5 ms.
        self._write(T_MODE, 0x8D)
        self._write(T_PRESCALER, 0x3E)
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, TIMER_TICKS)
        self._write(TX_ASK, 0x40)  # force 100 % ASK modulation
        self._write(MODE, 0x3D)  # CRC preset 0x6363 (ISO 14443-3)
        self._set_bits(TX_CONTROL, ANTENNA_ON)
        # A tag needs up to 5 ms in the field before it must answer (ISO/IEC 14443-3): a
        # WUPA sent at once misses it, and a reset chip's tile would miss a poll (review61f F8).
        time.sleep_ms(FIELD_READY_MS)

    def _check_alive(self):
        version = self._read(VERSION)
        if version in (0x00, 0xFF):  # a floating MISO line: the chip is gone
            raise OSError("MFRC522 does not answer")

    def _check_setup(self):
        """Set the chip up again when it has lost what init() wrote (D1). A brief dip of its
        3.3 V restarts it at its reset values, still answering VersionReg: antenna off (no
        tag ever answers) and timer stopped (every transceive spins to its loop's end).
        Shorter than FAIL_AFTER polls, nothing else would notice it, and the slot would
        read empty for good."""
        antenna = self._read(TX_CONTROL) & ANTENNA_ON
        if self._read(T_RELOAD_L) != TIMER_TICKS or antenna != ANTENNA_ON:
            self.init()

    def _transceive(self, data, last_bits=0):
        self._collided = False
        self._answered = False
        self._write(COMMAND, CMD_IDLE)
        self._write(COM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, CMD_TRANSCEIVE)
        self._set_bits(BIT_FRAMING, 0x80)  # StartSend
        for _ in range(2000):
            irq = self._read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer arrived
                self._answered = True
                break
            if irq & 0x01:  # TimerIRq: nobody answered
                return None
        else:
            return None
        self._clear_bits(BIT_FRAMING, 0x80)
        error = self._read(ERROR)
        if error & 0x1B:  # buffer overflow, collision, parity, protocol
            self._collided = bool(error & COLL_ERR)
            return None
        count = self._read(FIFO_LEVEL)
        return bytes(self._read(FIFO_DATA) for _ in range(count))

    def _crc_a(self, data):
        self._write(COMMAND, CMD_IDLE)
        self._write(DIV_IRQ, 0x04)
        self._write(FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(COMMAND, CMD_CALC_CRC)
        for _ in range(255):
            if self._read(DIV_IRQ) & 0x04:
                break
        return bytes((self._read(CRC_RESULT_L), self._read(CRC_RESULT_H)))

    # -- tag ------------------------------------------------------------

    def _halt(self):
        """HLTA. It takes an ACTIVE tag to HALT, and a READY one back to IDLE (an unexpected
        command, ISO/IEC 14443-3): either way the next poll's WUPA wakes it again."""
        halt = bytes((PICC_HLTA, 0))
        self._transceive(halt + self._crc_a(halt))

    def read_uid(self):
        """The UID of the tag in the field as bytes, None when there is none, or
        ``COLLISION`` when several tags answer WUPA or the anticollision at once (the driver runs
        no anticollision loop: one tile per slot is the rule, and the player is told).

        Every tag that answered WUPA, garbled or not, is halted before this returns, whatever
        came of the select (review65w R1). A tag left READY takes the next poll's WUPA for an
        unexpected command and drops back to IDLE without answering (ISO/IEC 14443-3), so
        that poll read nothing: after a collision the reads went collision, none, collision,
        none, and two stacked tiles were never reported (audit fw65 D1; miguelbalboa/rfid#437,
        "a card every second try")."""
        self._check_alive()
        self._check_setup()
        atqa = self._transceive(bytes((PICC_WUPA,)), last_bits=7)
        if atqa is None or len(atqa) != 2:
            # Tags of two types (NTAG 44 00, MIFARE Classic 04 00) already collide here. An
            # answer with a parity or protocol error (a tile at the field's edge) left its tag
            # READY too (review65w R1). An empty slot timed out: nothing answered, and it
            # costs no HLTA (5 ms of timer wait).
            collided = self._collided  # _halt() clears it
            if self._answered:
                self._halt()
            return COLLISION if collided else None
        uid = self._select()
        self._halt()
        return uid

    def _select(self):
        """The anticollision/select cascade after a WUPA answer: the UID, None, or COLLISION."""
        uid = b""
        for level in SELECT_LEVELS:
            part = self._transceive(bytes((level, 0x20)))
            if part is None and self._collided:
                return COLLISION
            if part is None or len(part) != 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None
            command = bytes((level, 0x70)) + part
            answer = self._transceive(command + self._crc_a(command))
            if answer is None or len(answer) != 3:
                return None
            if not answer[0] & SAK_CASCADE:  # the UID is complete: all four bytes are its own
                uid += part[:4]
                break
            # A level follows: this one holds the cascade tag and three bytes of the UID
            # (ISO/IEC 14443-3). The SAK says so, not the first byte: a 4-byte UID may begin
            # with 0x88 (a writable "magic" card), and cutting it to 3 bytes made a UID no
            # line carries (audit rfid63 R1).
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:4]
        else:
            return None  # a cascade bit at the last level: no UID of a length we know
        return uid

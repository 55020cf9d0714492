"""An MFRC522 and an ISO 14443A tag behind a fake SPI bus, register by register.

Enough of the datasheet to run the firmware's driver: register reads and
writes over SPI, the FIFO, the Transceive and CalcCRC commands, the IRQ bits,
and a tag that goes IDLE (REQA or WUPA)/HALT (WUPA only) → READY → ACTIVE (anticollision and
select, cascade levels 1-3) → HALT (HLTA). As ISO/IEC 14443-3 has it, a READY or
ACTIVE tag takes any command it does not expect there (a WUPA, an HLTA while READY,
a select for another level) for an error: it drops back to IDLE (HALT, when WUPA woke
it from HALT) without answering (audit fw65 D1). A reset (power-up, a supply dip,
SoftReset) brings the datasheet's reset values: antenna drivers off
(TxControlReg 0x80), so no tag answers, and the timer off (TModeReg 0x00), so
no TimerIRq ends a transceive that nobody answers. With ``wake_ms`` set, a tag
answers only once the field has been on that long (ISO/IEC 14443-3 gives it up to
5 ms); ``now_ms`` is the chip's clock, which a test's ``time.sleep_ms`` advances.
"""

from __future__ import annotations

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, BIT_FRAMING = 0x09, 0x0A, 0x0D
TX_CONTROL, T_MODE = 0x14, 0x2A
CRC_RESULT_H, CRC_RESULT_L, VERSION = 0x21, 0x22, 0x37
TRANSCEIVE, CALC_CRC, SOFT_RESET = 0x0C, 0x03, 0x0F
LEVELS = (0x93, 0x95, 0x97)


def crc_a(data: bytes) -> bytes:
    """ISO 14443-3 CRC_A, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, crc >> 8))


def bcc(part: bytes) -> int:
    return part[0] ^ part[1] ^ part[2] ^ part[3]


class Tag:
    """A tag of one type: ``atqa`` is its answer to WUPA (NTAG213 44 00, MIFARE Classic 04 00)."""

    def __init__(self, uid: bytes, atqa: bytes = b"\x44\x00") -> None:
        assert len(uid) in (4, 7, 10)
        self.uid = uid
        self.atqa = atqa
        self.state = "idle"
        self.level = 0
        self.from_halt = False  # WUPA woke it from HALT: an error sends it back there

    def parts(self) -> list[bytes]:
        uid = self.uid
        if len(uid) == 4:
            return [uid]
        if len(uid) == 7:
            return [b"\x88" + uid[:3], uid[3:]]
        return [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]

    def respond(self, frame: bytes, bits: int) -> bytes | None:
        wupa = bits == 7 and frame == b"\x52"
        reqa = bits == 7 and frame == b"\x26"
        if self.state in ("idle", "halt"):
            # IDLE answers REQA and WUPA; HALT answers WUPA only (ISO/IEC 14443-3). A driver
            # that polled with REQA would read a lone tile, then miss it every other poll
            # once it had halted it, as a real tag does (review65w NIT 1).
            if wupa or (reqa and self.state == "idle"):
                self.from_halt = self.state == "halt"
                self.state, self.level = "ready", 0
                return self.atqa
            return None
        if self.state == "ready" and len(frame) == 2 and frame[1] == 0x20 \
                and frame[0] == LEVELS[self.level]:
            part = self.parts()[self.level]
            return part + bytes((bcc(part),))
        if self.state == "ready" and len(frame) == 9 and frame[1] == 0x70:
            part = self.parts()[self.level]
            if frame[0] == LEVELS[self.level] and frame[2:7] == part + bytes((bcc(part),)) \
                    and crc_a(frame[:7]) == frame[7:]:
                last = self.level == len(self.parts()) - 1
                sak = bytes((0x00 if last else 0x04,))
                if last:
                    self.state = "active"
                else:
                    self.level += 1
                return sak + crc_a(sak)
        halt = frame[:2] == b"\x50\x00" and crc_a(frame[:2]) == frame[2:]
        if self.state == "active" and halt:  # HLTA: no answer
            self.state = "halt"
            return None
        # Anything else in READY or ACTIVE is an error (a WUPA included): back to IDLE, or to
        # HALT when WUPA woke it from there, without answering (ISO/IEC 14443-3).
        self.state = "halt" if self.from_halt else "idle"
        return None


class ChipBus:
    """A fake ``machine.SPI`` with one MFRC522 on it; ``tag`` is what lies on the antenna."""

    def __init__(self) -> None:
        self.regs: dict[int, int] = {}
        self.fifo: list[int] = []
        self.tag: Tag | None = None
        self.more: list[Tag] = []  # other tags on the antenna: differing answers collide
        self.answers = True  # False: the reader's cable came loose
        self.transceived: list[bytes] = []
        self.reads = 0  # register reads: how long a driver's poll spun on the bus
        self.wake_ms = 0
        self.now_ms = 0
        self.field_since = 0
        self.reset()

    def reset(self) -> None:
        self.regs = {VERSION: 0x92, TX_CONTROL: 0x80}  # the other registers reset to 0x00
        self.fifo = []

    # -- machine.SPI ----------------------------------------------------

    def write(self, data: bytes | bytearray) -> None:
        assert len(data) == 2 and not data[0] & 0x80  # a write frame: address, value
        self._write((data[0] >> 1) & 0x3F, data[1])

    def write_readinto(self, out: bytes | bytearray, into: bytearray) -> None:
        """A read frame: the address byte, then the register's value clocked out."""
        assert len(out) == len(into) == 2 and out[0] & 0x80 and out[1] == 0
        self.reads += 1
        into[0] = 0
        into[1] = self._read((out[0] >> 1) & 0x3F) if self.answers else 0x00

    # -- the chip -------------------------------------------------------

    def _read(self, register: int) -> int:
        if register == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if register == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs.get(register, 0)

    def _write(self, register: int, value: int) -> None:
        if not self.answers:
            return
        if register in (COM_IRQ, DIV_IRQ) and not value & 0x80:
            self.regs[register] = self.regs.get(register, 0) & ~value
        elif register == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif register == FIFO_DATA:
            self.fifo.append(value)
        elif register == COMMAND:
            self.regs[COMMAND] = value
            if value == SOFT_RESET:
                self.reset()
            elif value == CALC_CRC:
                crc = crc_a(bytes(self.fifo))
                self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = crc[0], crc[1]
                self.regs[DIV_IRQ] = self.regs.get(DIV_IRQ, 0) | 0x04
        elif register == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self.regs.get(COMMAND) == TRANSCEIVE:
                self._transceive(value & 0x07)
        elif register == TX_CONTROL:
            if value & 0x03 == 0x03 and self.regs.get(TX_CONTROL, 0) & 0x03 != 0x03:
                self.field_since = self.now_ms  # the field comes on
            self.regs[register] = value
        else:
            self.regs[register] = value

    def _transceive(self, bits: int) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        self.transceived.append(frame)
        field = self.regs.get(TX_CONTROL, 0) & 0x03 == 0x03 \
            and self.now_ms - self.field_since >= self.wake_ms
        tags = ([self.tag] if self.tag is not None else []) + self.more if field else []
        answers = [a for a in (tag.respond(frame, bits) for tag in tags) if a is not None]
        answer = answers[0] if answers else None
        self.regs[ERROR] = 0
        if answer is None:
            if self.regs.get(T_MODE, 0) & 0x80:  # TAuto: the timer started, and ran out
                self.regs[COM_IRQ] = self.regs.get(COM_IRQ, 0) | 0x01
        else:
            self.fifo.extend(answer)
            self.regs[COM_IRQ] = self.regs.get(COM_IRQ, 0) | 0x30
            if any(other != answer for other in answers):
                self.regs[ERROR] = 0x08  # CollErr: tags answered different bits at once

"""The table's tile reader that ``companion play`` opens (``input.kind``): the camera with
what ``companion calibrate camera`` saved, or an RFID reader with its enrolled stickers."""

from __future__ import annotations

from pathlib import Path

from companion.app.command_name import companion_line
from companion.errors import DeviceError
from companion.hw.ports import TileReader
from companion.systems.jongrogue.wall import TileLedger


class OtherKindsStickers(DeviceError):
    """The tag map holds stickers, but none the reader kind reads (rfid69 R3): the reader
    is there to be set up, as with none enrolled (no hint of playing without it)."""


def open_reader(kind: str, camera_source: str, rfid_port: str, ledger: TileLedger,
                rfid_kind: str = "tray") -> TileReader:
    """The table's tile reader by name; each backend is imported only when chosen.

    ``rfid_kind``: ``tray`` (MFRC522 readers under every slot, found by USB id) or
    ``rdm6300`` (one reader under the draw slot, on the Pi's UART unless a port is given).
    An RFID reader with no sticker enrolled, or none of its kind (the other kind's map),
    is refused: it could name no tile.
    """
    if kind == "camera":
        from companion.app.camera_settings import load_settings, load_slot_looks
        from companion.app.commands.classify import classifier_and_notice
        from companion.hw.camera.capture import FileSource, open_source
        from companion.hw.camera.mat import MatDetector
        from companion.hw.camera.reader import CameraTileReader

        # What `companion calibrate camera` saved: the reader's settings, the player's set
        # and each slot's look when empty.
        classifier, notice = classifier_and_notice(None)
        detector = MatDetector()
        source = open_source(camera_source)
        if isinstance(source, FileSource) and source.still:
            source.loop = True  # one frame never settles a read: it is read again and again
        camera = CameraTileReader(source, classifier, detector=detector,
                                  settings=load_settings(classifier), ledger=ledger,
                                  looks=load_slot_looks(detector.geometry))
        camera.enrol_notice = notice  # for the status line at start (told_at_start)
        return camera
    if kind == "rfid":
        from companion.app.paths import config_dir
        from companion.hw.rfid.link import port_or_usb, unknown_url
        from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
        from companion.hw.rfid.tray import TRAY_PID, TRAY_VID, TrayReader

        path = config_dir() / TAGMAP_FILENAME
        tags = TagMap.load(path)
        if not len(tags):
            # Else every tile laid says "not enrolled: lay another", which cannot help.
            raise DeviceError(f"no RFID stickers are enrolled ({path} is missing or empty) "
                              "RFIDシール未登録: run "
                              f"`{companion_line('calibrate', 'rfid')}` first, to enrol the "
                              "sticker under every tile")
        if rfid_kind in ("tray", "rdm6300") and not tags.read_by(rfid_kind):
            # Else, as with none enrolled, every tile laid says "not enrolled", and
            # --reenrol finds no lost sticker: the map is the other kind's (rfid69 R3).
            raise OtherKindsStickers(other_kinds_stickers(len(tags), path, rfid_kind))
        if rfid_port and (problem := unknown_url(rfid_port)) is not None:
            # pyserial refuses it at every attempt: the game sat at "Starting the tile
            # reader" for ever (rfid75 NIT 5).
            raise DeviceError(f"the RFID port (--rfid-port, input.rfid_port) {problem}")
        if rfid_kind == "rdm6300":
            from companion.hw.rfid.rdm6300 import DEFAULT_PORT, Rdm6300Reader

            return Rdm6300Reader(rfid_port or DEFAULT_PORT, tags)
        if rfid_kind != "tray":
            raise DeviceError(f"no RFID reader called {rfid_kind!r} その読み取り機はありません: "
                              "choose tray or rdm6300")
        return TrayReader(port_or_usb(rfid_port or None, TRAY_VID, TRAY_PID), tags)
    raise DeviceError(f"no table reader called {kind!r} その読み取り方はありません: "
                      "choose camera or rfid")


def other_kinds_stickers(count: int, path: Path, kind: str) -> str:
    """What play says when none of the ``count`` stickers enrolled in ``path`` is one a
    reader of ``kind`` reads (rfid69 R3): which they are, and the two ways on. Enrolling
    comes first, and the other kind only for a reader of that kind: a port that showed
    itself the tray resumes with the tray kind, and a first way on of the other kind went
    round in a loop (reviewr69 RISK 2)."""
    mine, theirs, their_reader = (("the tray", "rdm6300", "an RDM6300") if kind == "tray"
                                  else ("an RDM6300", "tray", "the tray"))
    stickers = "sticker enrolled in" if count == 1 else f"{count} stickers enrolled in"
    are = {  # (one, more) by the reader kind: what the other kind's stickers are
        "tray": ("is a 125 kHz RDM6300 ID (10 hex digits)",
                 "are 125 kHz RDM6300 IDs (10 hex digits)"),
        "rdm6300": ("is a 13.56 MHz tray sticker (8, 14 or 20 hex digits)",
                    "are 13.56 MHz tray stickers (8, 14 or 20 hex digits)"),
    }[kind][count != 1]
    enrol = companion_line("calibrate", "rfid", *(() if kind == "tray" else ("--kind", kind)))
    return (f"the {stickers} {path} {are}, which {mine} never reads "
            f"読み取り機と違う種類のシール: enrol the stickers {mine} reads (move {path} aside, "
            f"then `{enrol}`), or, if your reader is {their_reader}, play with --rfid-kind "
            f'{theirs} (input.rfid_kind = "{theirs}")')


def told_at_start(reader: TileReader) -> str:
    """What the game's status line says at start of how ``reader`` reads the tiles: the
    camera's enrolled set left out (made for another tile model; camera73 DEFECT 2, as the
    dice camera's, dicecam71 DEFECT 3); "" for nothing. It was said on stderr only, which
    the boot service's player never sees."""
    notice = getattr(reader, "enrol_notice", "")
    return notice if isinstance(notice, str) else ""


def kind_found(reader: TileReader) -> str | None:
    """The RFID reader kind ``reader``'s port showed itself to be, where it is not the kind
    opened (an RDM6300 on the tray's port, the tray on an RDM6300's); else None. A resume
    takes it in place of ``--rfid-kind`` (rfid69 D1, D2: the stop line repeated the kind
    that had just failed)."""
    from companion.hw.rfid.rdm6300 import Rdm6300Reader
    from companion.hw.rfid.tray import TrayReader

    if isinstance(reader, Rdm6300Reader) and reader.found_the_tray():
        return "tray"
    if isinstance(reader, TrayReader) and reader.found_an_rdm6300():
        return "rdm6300"
    return None

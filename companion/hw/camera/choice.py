"""A camera source string that knows which setting chose it, for the messages about it.

Light on purpose: the config (read by every command) makes these without OpenCV.
"""

from __future__ import annotations

import os
import stat

#: What a plain source string is said to come from: the commands' --source, or the config.
ANY_SETTING = "--source, or input.camera_source in the config"
#: How to choose a USB camera, said for a plain source string.
ANY_USB = 'camera_source = "camera:0" under [input] in config.toml, or --source camera:0'


def names_a_file(spec: str) -> bool:
    """Whether the source ``spec`` is a picture, a folder or a video (a path), not a camera
    or a rendered scene (:func:`~companion.hw.camera.capture.open_source` tells them so)."""
    return not (spec.startswith(("camera:", "/dev/video", "render:")) or spec.isdigit()
                or spec in ("picamera", "picamera:") or names_a_device(spec))


def names_a_device(path: str) -> bool:
    """Whether the path ``path`` names a webcam by a device file not called /dev/videoN:
    udev's /dev/v4l/by-id/…-video-index0 and /dev/v4l/by-path/…, or a rule's own link. It
    is one when it leads to a character device, or lies under /dev/ and is not there now
    (a webcam's node and udev's links to it come when it is plugged in), as ``config
    --show`` takes it. Such a path was read as a picture file, and play and calibration
    refused it for want of a picture's or a video's suffix (reviewcam75 RISK 1). A folder
    of pictures or a pipe under /dev/ (/dev/shm/frames, /dev/stdin) is no camera, nor
    anything under /dev/shm/, where files are kept (a temporary folder may be there):
    one missing there is a file missing."""
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):  # ValueError: a NUL in the path, which names nothing
        return path.startswith("/dev/") and not path.startswith("/dev/shm/")


#: The sources there are, for a source that names none.
SOURCES = "camera:0, /dev/video0, picamera, or a picture, folder or video"


def mistyped(written: str) -> str | None:
    """Why the camera source ``written`` can name nothing, or None: empty (a path made of it
    is the current folder), or ``camera:`` followed by neither a number nor a device path
    (``camera:x``, ``camera:0 `` with a trailing space). Here, without OpenCV, for
    ``config --show`` and play's start to say before a camera is opened (setup73 DEFECT 1);
    the camera refuses it when it is opened (``capture.refuse_mistyped`` calls this)."""
    if not written.strip():
        return f"the camera source is empty: give {SOURCES}"
    device = written.removeprefix("camera:")
    if written.startswith("camera:") and not (device.isdigit() or device.startswith("/")):
        # Quoted: "camera:: a camera is …" read as a typo of the message (reviewc69 NIT 4).
        return (f"{written!r}: a camera is camera:0, camera:1, … (its number), or its "
                "device, as /dev/video0")
    return None


class CameraChoice(str):
    """A camera source (``camera:0``, ``picamera``, a folder of pictures) and the setting
    that gave it, named for a message: ``setting`` is where it is chosen
    (``input.camera_source (/home/pi/.config/jongrogue-companion/config.toml)``,
    ``--source``), and ``usb`` how a USB camera is chosen there instead
    (``camera_source = "camera:0" under [input] in …/config.toml``); ``written`` is the value as
    the player wrote it, when the source is a path made from it (a relative path in
    config.toml is taken from its folder); ``instead`` what a table without this camera
    does, said when the Pi camera does not start: the tile camera's RFID tray, worded by
    the app where the setting that chose the camera is known (empty: nothing).
    Everywhere else it is the plain string, so it goes through every layer that takes a
    source string."""

    setting: str
    usb: str
    written: str
    instead: str

    def __new__(cls, spec: str, setting: str, usb: str,
                written: str | None = None, instead: str = "") -> CameraChoice:
        made = super().__new__(cls, spec)
        made.setting = setting
        made.usb = usb
        made.written = spec if written is None else written
        made.instead = instead
        return made

    @classmethod
    def option(cls, spec: str) -> CameraChoice:
        """A source given on the command line with ``--source``."""
        return cls(spec, "--source", "--source camera:0")


def chosen_in(spec: str) -> str:
    """Where ``spec`` was chosen, for a message (:data:`ANY_SETTING` when not known); for
    ``--source``, with another camera to give it: "choose another camera: --source" ended on
    a bare option (calib62 N9)."""
    if not isinstance(spec, CameraChoice):
        return ANY_SETTING
    if spec.setting != "--source":
        return spec.setting
    other = "camera:1" if str(spec) in ("camera:0", "0", "/dev/video0") else "camera:0"
    return f"--source (such as --source {other})"


def usb_instead(spec: str) -> str:
    """How to choose a USB camera in place of ``spec``, for a message."""
    return spec.usb if isinstance(spec, CameraChoice) else ANY_USB

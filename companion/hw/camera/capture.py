"""Where camera frames come from: a USB webcam, the Pi camera, files, or a rendered scene.

Every source has the same small interface (:class:`FrameSource`): ``read()``
returns a BGR frame or None, and never raises on a missing, unplugged or
misbehaving device; ``message`` says in words what is wrong. A source is
chosen by a string, as serial ports are (see :func:`open_source`)::

    camera:0            the first USB/V4L2 webcam (OpenCV VideoCapture)
    /dev/video2         a webcam by device path
    picamera            the Raspberry Pi camera (Picamera2, imported only here)
    render:draw=5p      a rendered mat with tiles on it, for tests and demos
    shots/ frame.png clip.mp4   a folder of pictures, one picture, or a video
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import struct
import time
from collections.abc import Callable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.errors import DeviceError, InvalidNotation
from companion.hw.camera.choice import (
    ANY_SETTING,
    ANY_USB,
    CameraChoice,
    chosen_in,
    mistyped,
    names_a_device,
    names_a_file,
    usb_instead,
)
from companion.hw.camera.sim_scene import Camera, render_scene
from companion.hw.camera.video_length import declared_past_end
from companion.hw.pictures import VIDEO_SUFFIXES, PictureError, not_regular, read_picture
from companion.hw.ports import Slot

# The pictures OpenCV reads wherever a build runs (the Pi's 4.11 too): one picture of another
# kind is read all the same (read_picture), and a folder's are these. A folder of .tif frames
# was "the folder holds no pictures", though one .tif was read (camera75 NIT 2).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
DARK_MEAN = 12.0  # grey level below which a frame is called black
BRIGHT_MEAN = 245.0  # above which it is called washed out
PURE_WHITE = 254.0  # a drawing's paper: no camera's noise under it
INK_PERCENTILE = 1.0  # the markers and lines cover more of the mat than this percent
BURNT_OUT = 250  # a grey this bright is paper with no shading left: white ink, or clipped
# A drawing's pixels are paper (>= BURNT_OUT) or ink (<= DARK_MEAN), bar its lines' smoothed
# edges: docs/mat.png is 97.7% so at its own size and 96.7% shrunk to 800 or 640 pixels
# wide (cv2.INTER_AREA; its slot names 部屋の左上 and 引き牌の枠 took 0.2 points). The
# rendered mat burnt out (brightness 3, the mat 95% of the view's width, the table showing
# at its sides: mean 246) is 95.2%, its table's shading and the paper's edge the rest.
DRAWN_SHARE = 0.96
OPENCV_LOG_LEVEL_ERROR = 2  # cv::utils::logging::LOG_LEVEL_ERROR, in OpenCV 4 and 5 alike
AV_LOG_QUIET = -8  # FFmpeg's log level that prints nothing (libavutil/log.h)
#: How each kind of video file begins (its container's first bytes, at an offset): a file
#: that begins so and cannot be read is a video cut short or damaged, not another kind of file.
#: A QuickTime .mov may begin with a free, skip, wide or pnot (preview) atom before its
#: ftyp: cut down to it, it was "another kind of file" (reviewcam75 NIT 3b).
VIDEO_STARTS = ((4, b"ftyp"), (4, b"moov"), (4, b"mdat"), (4, b"wide"), (4, b"free"),
                (4, b"skip"), (4, b"pnot"), (0, b"RIFF"), (0, b"\x1a\x45\xdf\xa3"))


class FrameSource(Protocol):
    """A camera-like thing. ``read`` never raises; ``message`` explains the last None."""

    message: str

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


def is_drawing(frame: np.ndarray) -> bool:
    """Whether ``frame`` looks like a drawing of the mat (its print file, docs/mat.png): its
    paper pure white, its ink pure black and almost nothing between. Light strong enough to
    burn the paper out in a photograph mostly lifts the markers' black as well, and the
    table, the shadows and the paper's shading around them stay grey.

    A camera whose paper fills its view and burns out looks the same, markers and all: only
    a picture file can be a drawing (:func:`may_be_drawn`), so ask this of nothing else."""
    if frame.size == 0 or float(np.median(frame)) < PURE_WHITE \
            or float(np.percentile(frame, INK_PERCENTILE)) > DARK_MEAN:
        return False
    flat = int(np.count_nonzero((frame >= BURNT_OUT) | (frame <= DARK_MEAN)))
    return flat >= DRAWN_SHARE * frame.size


def may_be_drawn(source: FrameSource) -> bool:
    """Whether ``source``'s frames may be a drawing of the mat: pictures given as files (one,
    or a folder of them). A live camera's never are, however burnt out (an overexposed view
    is washed out, whatever dark edge it keeps), nor a video's, which a camera recorded."""
    return isinstance(source, FileSource) and source.pictures


def frame_problem(frame: np.ndarray, *, picture_file: bool = False) -> str | None:
    """Why a frame is useless (black, washed out), or None when it looks like a picture.

    A drawing of the mat (:func:`is_drawing`) is as bright as a washed-out picture, but no
    light is to blame and its markers can be found: it is let through when the frame is
    from a picture file (``picture_file``, :func:`may_be_drawn`), and only then."""
    if frame.size == 0:
        return "the camera sent an empty picture"
    mean = float(frame.mean())
    if mean < DARK_MEAN:
        return "the picture is black: is the lens covered, or the light off?"
    if mean > BRIGHT_MEAN and not (picture_file and is_drawing(frame)):
        return "the picture is washed out: too much light or glare on the mat"
    return None


def quiet_opencv() -> None:
    """Keep OpenCV's warnings to errors: a source's ``message`` says in words what is wrong,
    and OpenCV's own warnings on every retry would scroll through the terminal display.

    OpenCV 5 has ``cv2.utils.logging.setLogLevel``; OpenCV 4 has ``cv2.setLogLevel`` and no
    ``cv2.utils.logging`` (the Pi's: numpy<2 there takes opencv-python-headless 4.11, and a
    USB webcam crashed with AttributeError). A build with neither keeps its warnings.

    OpenCV 4's Orbbec depth-camera backend, tried for every camera index, says "Camera index
    out of range" as an error of its own for a webcam not plugged in, before the source's
    words: it is left out (read when the first camera is opened), unless the user set it.

    FFmpeg, which reads video files, logs through its own level, not OpenCV's: a video cut
    short printed "[mov,mp4,… @ 0x…] moov atom not found" over the source's own words
    (camera75 NIT 5); it is kept quiet (AV_LOG_QUIET, read as FFmpeg is first used), unless
    the user set its level, or OPENCV_FFMPEG_DEBUG to hear it.

    OpenCV's own AVI reader (CV_MJPEG), tried on a file FFmpeg could not open, printed
    "Unexpected element. Expected: LIST. Got: …" (two bytes of the file's) over the words
    of an .avi cut short (reviewcam75 NIT 2): it is left out unless the user set it, and
    FFmpeg reads every .avi it could (MJPG and XVID alike)."""
    os.environ.setdefault("OPENCV_VIDEOIO_PRIORITY_OBSENSOR", "0")
    os.environ.setdefault("OPENCV_VIDEOIO_PRIORITY_CV_MJPEG", "0")
    if not {"OPENCV_FFMPEG_LOGLEVEL", "OPENCV_FFMPEG_DEBUG"} & os.environ.keys():
        # OPENCV_FFMPEG_DEBUG alone asks FFmpeg for all it says: a level set unasked
        # silenced it (reviewcam75 NIT 4).
        os.environ["OPENCV_FFMPEG_LOGLEVEL"] = str(AV_LOG_QUIET)
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_ERROR)
        return
    set_level = getattr(cv2, "setLogLevel", None)
    if callable(set_level):
        set_level(OPENCV_LOG_LEVEL_ERROR)


class OpenCVCamera:
    """A USB/V4L2 webcam through OpenCV; reconnects by itself after an unplug."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (1280, 720), *,
                 retry_s: float = 2.0, clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[int | str], Any] | None = None,
                 chosen_in: str = ANY_SETTING) -> None:
        """``chosen_in``: the setting that chose this camera, where another is chosen
        (``dice.camera_source (…/config.toml)``, ``--source``)."""
        self.device = device
        self.size = size
        self.chosen_in = chosen_in
        self.message = f"camera {device} not opened yet"
        self._retry_s = retry_s
        self._clock = clock
        self._opener = opener if opener is not None else cv2.VideoCapture
        quiet_opencv()
        self._capture: Any = None
        self._next_try = 0.0

    @property
    def named(self) -> str:
        """The camera as the player writes it: ``camera:3`` for a webcam given by number
        ("no camera at 3" read as a count: a77dice NIT 7), else its device path."""
        return f"camera:{self.device}" if isinstance(self.device, int) else self.device

    def open(self) -> bool:
        """Open the device now, unless it was tried less than ``retry_s`` ago; False with
        ``message`` saying why when it cannot be opened."""
        now = self._clock()
        if now < self._next_try:
            return False
        self._next_try = now + self._retry_s
        capture = self._opener(self.device)
        if capture is None or not capture.isOpened():
            self.message = self._why_not_opened()
            return False
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture
        return True

    def _why_not_opened(self) -> str:
        """Why OpenCV gave nothing from the device, as the kernel tells of its node
        (:func:`node_kind`)."""
        node = device_node(self.device)
        try:
            kind = node_kind(node)
        except OSError as exc:
            # EIO, or EPERM from a sandbox's filter of ioctls: a camera may well be there.
            return (f"no pictures from {node}: it would not say what it is ({kernel_said(exc)}); "
                    f"check the cable, or choose another camera: {self.chosen_in}; retrying")
        if kind is Node.DENIED:
            return (f"no pictures from {node}: this user may not open it (sudo usermod -aG "
                    "video $USER, then log in again); retrying")
        if kind is Node.CAPTURE:
            # V4L2 lets a second program open the device, and refuses it the stream
            # (VIDIOC_REQBUFS: EBUSY) while another streams: OpenCV then says only "not
            # opened". A camera that is there and gives nothing is in use, as a rule.
            return (f"no pictures from {node}: in use by another program (the companion "
                    f"service? {STOP_SERVICE}; a game or calibration already running, another "
                    "camera program), or only just plugged in; or choose another camera: "
                    f"{self.chosen_in}; retrying")
        if kind is Node.OTHER:
            return (f"no pictures from {node}: not a camera's picture node (a webcam's second "
                    "node is its metadata; the Pi's ribbon camera is `picamera`): choose "
                    f"another camera: {self.chosen_in}; retrying")
        return (f"no camera at {self.named}: check the cable, or choose another camera: "
                f"{self.chosen_in}; retrying")

    def read(self) -> np.ndarray | None:
        if self._capture is None and not self.open():
            return None
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self._capture.release()
            self._capture = None
            self.message = (f"{self.named} stopped sending pictures (unplugged?); "
                            "retrying")
            return None
        self.message = "ok"
        out: np.ndarray = frame
        return out

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


#: How the boot service, which holds the camera while it plays, is stopped (install-pi.sh's
#: unit).
STOP_SERVICE = "sudo systemctl stop jongrogue-companion"


class Node(Enum):
    """What a webcam's device node is, as the kernel answers (:func:`node_kind`)."""

    GONE = "gone"  # no such file, or its device went (ENODEV, ENXIO): unplugged
    DENIED = "denied"  # this user may not open it read-write (not in the video group)
    CAPTURE = "capture"  # a video capture device, or one busy at its open: another streams
    OTHER = "other"  # no capture device: a webcam's metadata node, a codec, /dev/null


#: V4L2's VIDIOC_QUERYCAP (_IOR('V', 0, struct v4l2_capability), 104 bytes), and the bits
#: of its answer that make a node one pictures are read from (linux/videodev2.h).
VIDIOC_QUERYCAP = 0x80685600
V4L2_CAPABILITY_SIZE = 104
V4L2_CAP_VIDEO_CAPTURE = 0x00000001
V4L2_CAP_VIDEO_CAPTURE_MPLANE = 0x00001000
V4L2_CAP_DEVICE_CAPS = 0x80000000


#: What the kernel says of a node whose device was unplugged, at its open or at its ioctl.
UNPLUGGED = (errno.ENOENT, errno.ENODEV, errno.ENXIO)
#: What it says to VIDIOC_QUERYCAP of a node that is no V4L2 device (a tty, /dev/null, a file).
NOT_V4L2 = (errno.ENOTTY, errno.EINVAL)


def node_kind(node: Path) -> Node:
    """What ``node`` is, by the kernel's answers: to its open, read-write as OpenCV opens it
    (EBUSY: another holds it; EACCES, EPERM: not this user's, be it only for writing), then
    to VIDIOC_QUERYCAP (ENOTTY, EINVAL: no V4L2 device), whose ``device_caps`` (the node's
    own, not the whole device's ``capabilities``) say whether pictures are captured from it.
    ENOENT, ENODEV or ENXIO at either is a device unplugged.

    Raises the OSError of any other refusal (EIO; EPERM from the ioctl, as a sandbox's filter
    gives): the node may be a camera, and what it is is not known."""
    try:
        fd = os.open(node, os.O_RDWR | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno in UNPLUGGED:
            return Node.GONE
        if exc.errno == errno.EBUSY:
            return Node.CAPTURE
        if exc.errno in (errno.EACCES, errno.EPERM):
            return Node.DENIED
        raise
    try:
        answer = bytearray(V4L2_CAPABILITY_SIZE)
        fcntl.ioctl(fd, VIDIOC_QUERYCAP, answer)
    except OSError as exc:
        if exc.errno in UNPLUGGED:  # pulled out between the open and the ioctl
            return Node.GONE
        if exc.errno in NOT_V4L2:
            return Node.OTHER
        raise
    finally:
        os.close(fd)
    capabilities, device_caps = struct.unpack_from("=II", answer, 84)
    caps = device_caps if capabilities & V4L2_CAP_DEVICE_CAPS else capabilities
    if caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE):
        return Node.CAPTURE
    return Node.OTHER


def kernel_said(exc: OSError) -> str:
    """The kernel's refusal in ``exc`` as a player may look it up: ``EIO: Input/output error``."""
    name = errno.errorcode.get(exc.errno or 0)
    text = exc.strerror or str(exc)
    return f"{name}: {text}" if name else text


def device_node(device: int | str) -> Path:
    """The device file of a webcam: ``/dev/video2`` for 2, a path as given."""
    return Path(f"/dev/video{device}") if isinstance(device, int) else Path(device)


def _why_not_started(exc: BaseException, instead: str) -> str:
    """What to do about a Pi camera that did not start. Picamera2 wraps libcamera's refusal
    of a camera another process holds (acquire() returns -EBUSY, -16) in "Camera __init__
    sequence did not complete", which alone reads like a loose cable. A build with the RFID
    tray and no camera reaches this too when its config still reads tiles from the camera:
    ``instead`` says how to read them from the tray, as the setting that chose the camera
    was given (the app words it; f78carry: "in config.toml" while the environment chose)."""
    said: list[str] = []
    cause: BaseException | None = exc
    while cause is not None and len(said) < 5:
        said.append(str(cause))
        cause = cause.__cause__ or cause.__context__
    if any("-16" in text or "acquire" in text.lower() for text in said):
        return ("the Pi camera is in use by another program: a game already running (the "
                f"jongrogue-companion service? {STOP_SERVICE}) or another camera program")
    return f"the Pi camera did not start ({exc}); is its ribbon cable seated?" + (
        f" {instead}" if instead else "")


class PicameraSource:
    """The Raspberry Pi camera through Picamera2 (imported when it is opened, only on the Pi).

    A Picamera2 that is not installed, or cannot load, never will be while this runs: that
    raises :class:`DeviceError` at once (the game stops with it rather than wait for a
    camera that cannot come). A camera that does not start (not connected, held by another
    program) is a message, and is tried again on the next read.
    """

    def __init__(self, size: tuple[int, int] = (1280, 720), *, usb: str = ANY_USB,
                 instead: str = "") -> None:
        """``usb``: how a USB camera is chosen instead, for the message when Picamera2
        is missing; ``instead``: what a table without the camera does, for the message when
        it does not start (:attr:`~companion.hw.camera.choice.CameraChoice.instead`)."""
        self.size = size
        self.instead = instead
        self.message = "Pi camera not started yet"
        self._camera: Any = None
        try:
            from picamera2 import Picamera2
        except ImportError:
            # apt's python3-picamera2 is outside a venv made without the system's packages
            # (scripts/bootstrap.sh's): install-pi.sh turns them on.
            raise DeviceError(
                "Picamera2 is not installed for the companion's Python: on Raspberry Pi OS "
                "run 'bash scripts/install-pi.sh' in the companion's folder, which installs "
                "python3-picamera2 and lets the companion's .venv use the system's packages "
                "('sudo apt install python3-picamera2' alone does not reach a .venv that "
                f"scripts/bootstrap.sh made); or use a USB camera: {usb}") from None
        except Exception as exc:  # installed, but it cannot load beside our packages
            raise DeviceError(
                f"Picamera2 cannot be loaded ({exc}): run 'bash scripts/install-pi.sh' again, "
                f"which keeps numpy at 1.x for it; or use a USB camera: {usb}") from None
        self._picamera2: Any = Picamera2

    def _start(self) -> bool:
        try:
            camera = self._picamera2()
            camera.configure(camera.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}))
            camera.start()
            if "AfMode" in camera.camera_controls:
                # An autofocus camera (the BOM's Camera Module 3) is left by libcamera in
                # Manual, its lens at about 1 m, and never moves it of its own accord: the
                # mat at 35-40 cm was out of focus for good (a78tilecam RISK 2). Continuous
                # focuses again once hands leave the mat.
                from libcamera import controls
                camera.set_controls({"AfMode": controls.AfModeEnum.Continuous})
        except Exception as exc:  # libcamera reports a missing camera with its own errors
            self.message = _why_not_started(exc, self.instead)
            return False
        self._camera = camera
        return True

    def read(self) -> np.ndarray | None:
        if self._camera is None and not self._start():
            return None
        try:
            # Picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's order already.
            frame: np.ndarray = self._camera.capture_array("main")
        except Exception as exc:  # a camera that vanished mid-stream
            self.message = f"the Pi camera stopped ({exc})"
            self.close()
            return None
        self.message = "ok"
        return frame

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            except Exception:  # already gone: nothing left to release
                pass
            self._camera = None


def video_fault(path: Path) -> str:
    """Why the video file at ``path``, which OpenCV cannot open, is so, told from its first
    bytes, as " (…)" (nothing when they cannot be read): an empty file, a video cut short (a
    copy or download that did not finish: an MP4's index is at its end), or a file of
    another kind. "not a video that can be read" alone did not say which (camera75 NIT 5)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(12)
    except OSError:
        return ""
    if not head:
        return " (the file is empty, 0 bytes: a cut copy?)"
    if any(head[at:at + len(start)] == start for at, start in VIDEO_STARTS):
        return (" (cut short, as an unfinished copy or download is, or damaged): copy it "
                "again")
    return " (it does not begin as a video does: another kind of file?)"


def name_order(path: Path) -> tuple[tuple[int | str, ...], str]:
    """The key that sorts pictures in a folder by name as a file manager shows them: runs of
    digits compared as numbers, so frame2 comes before frame10, and letters without regard
    to case (the name itself settles a tie: frame01 and frame1). ffmpeg and many cameras
    number frames without leading zeros (frame%d.png), and in plain text order frame10 to
    frame19 came between frame1 and frame2: a folder of two throws mixed their frames, and
    ran out or paired the throws wrongly (dicecam73 RISK 2)."""
    parts = re.split(r"(\d+)", path.name)  # text, digits, text…: each place keeps its kind
    return tuple(int(part) if i % 2 else part.casefold() for i, part in enumerate(parts)), \
        path.name


class FileSource:
    """Frames from a picture, a folder of pictures (in name order, numbers compared as
    numbers: :func:`name_order`) or a video file."""

    def __init__(self, path: Path, *, loop: bool = False) -> None:
        if not path.exists():
            raise DeviceError(f"{path}: no such camera, picture, folder or video "
                              "(cameras are camera:0, /dev/video0 or picamera)")
        self.path = path
        self.loop = loop
        self.message = "ok"
        self.ended = False  # no more frames will come (never, when looping)
        self.cut_short = False  # a video that ended where its file is cut short
        # Pictures, one or a folder of them, not a video: each may be a drawing.
        self.pictures = path.is_dir() or path.suffix.lower() not in VIDEO_SUFFIXES
        # One picture, not a folder or a video: the table as it was once, never changing.
        self.still = self.pictures and not path.is_dir()
        self._video: Any = None
        self._frames_read = 0
        self._files: list[Path] = []
        self._next = 0
        # The picture read to check the source, by its place in _files: its first read()
        # takes it, where it was read twice (a78tilecam DEFECT 1).
        self._checked: tuple[int, np.ndarray] | None = None
        if path.is_dir():
            self._files = sorted((p for p in path.iterdir()
                                  if p.suffix.lower() in IMAGE_SUFFIXES), key=name_order)
            if not self._files:
                raise DeviceError(f"{path}: the folder holds no pictures "
                                  f"({', '.join(IMAGE_SUFFIXES)})")
            self._readable()
        elif path.suffix.lower() in VIDEO_SUFFIXES:
            kind = not_regular(path, "video")
            if kind is not None:  # a pipe: FFmpeg would wait for its writer for ever
                raise DeviceError(f"{path}: {kind}")
            quiet_opencv()
            self._video = cv2.VideoCapture(str(path))
            if not self._video.isOpened():
                # Said now, as a picture that cannot be read is, not as "the source ended"
                # once the dice were laid (review64e NIT 1).
                self._video = None
                raise DeviceError(f"{path}: not a video that can be read{video_fault(path)}")
        else:
            # One picture that cannot be read gives no frame, ever: said now, naming it,
            # not as "no picture from the camera: … skipped" after the frames were tried
            # (events64 N5), as the dice camera's picture is checked.
            try:
                self._checked = (0, read_picture(path))
            except PictureError as exc:
                # A kind of file taken neither as a picture nor as a video: say which are.
                kinds = "" if path.suffix.lower() in IMAGE_SUFFIXES else (
                    f" (pictures: {', '.join(IMAGE_SUFFIXES)}; "
                    f"videos: {', '.join(VIDEO_SUFFIXES)})")
                raise DeviceError(f"{exc}{kinds}") from None
            self._files = [path]
        # One picture in all, alone or the only one in its folder: finding the mat uses it up.
        self.one_picture = self.pictures and len(self._files) == 1

    @property
    def files(self) -> tuple[Path, ...]:
        """The pictures read, in the order they are read (none for a video)."""
        return tuple(self._files)

    def _readable(self) -> None:
        """Refuse a folder none of whose pictures can be read, naming the first one's fault,
        as one picture that cannot be read is refused: taken as the game's camera it said
        "no more pictures" for good, and calibration named only the last one (camera71 NIT
        6). The pictures are tried in order until one reads: a good folder reads one."""
        problems: list[str] = []
        for at, picture in enumerate(self._files):
            try:
                self._checked = (at, read_picture(picture))
            except PictureError as exc:
                problems.append(f"{picture.name}: {exc.problem}")
                continue
            return
        which = ("its one picture cannot be read" if len(problems) == 1
                 else f"none of its {len(problems)} pictures can be read")
        more = "; …" if len(problems) > 1 else ""
        raise DeviceError(f"{self.path}: {which} ({problems[0]}{more})")

    def read(self) -> np.ndarray | None:
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok:
                cut = self._cut_short()
                self.cut_short = bool(cut)
                self.message = f"{self.path.name}: end of video{cut}"
                self.ended = True
                return None
            self._frames_read += 1
            out: np.ndarray = frame
            return out
        if self._next >= len(self._files):
            if not self.loop:
                self.message = f"{self.path.name}: no more pictures"
                self.ended = True
                return None
            self._next = 0
        at, path = self._next, self._files[self._next]
        self._next += 1
        if self._checked is not None and self._checked[0] == at:
            image, self._checked = self._checked[1], None
            self.message = "ok"
            return image
        try:
            image = read_picture(path)
        except PictureError as exc:
            self.message = f"{path.name}: {exc.problem}; skipped"
            return None
        self.message = "ok"
        return image

    def _cut_short(self) -> str:
        """Why a video ended early: it holds fewer bytes than its header declares
        (:func:`~companion.hw.camera.video_length.declared_past_end`). An AVI, a Matroska or
        WebM file, or an MP4 whose index comes first (faststart), copied or downloaded only
        in part, plays what it holds and stopped as a whole one does (a plain MP4's index
        comes last: cut, it does not open)."""
        if not declared_past_end(self.path):
            return ""
        return (f" after {self._frames_read} frames: the file holds less than its header "
                "says, so it is cut short, as an unfinished copy or download is; copy it "
                "again")

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None


#: The brightness of :class:`RenderedSource`'s camera: the mat's white paper stays under
#: burning out (250) at the brightest light a scene draws, 255 × 0.8 × 1.15 ≈ 235.
EXPOSURE = 0.8


class RenderedSource:
    """A simulated camera over the printed mat; tests and demos place tiles with verbs.

    Each frame is a new photograph (camera pose, light and noise drawn from the
    seed), of the same tiles in the same spots, like a real camera.
    """

    def __init__(self, tiles: Mapping[Slot, str] | None = None, *, seed: int = 0,
                 camera: Camera | None = None, vary: bool = False) -> None:
        self.tiles: dict[Slot, str] = dict(tiles or {})
        # Exposed as a camera's automatic exposure would be: the scene's light runs up to
        # 1.15 across the view, and at full brightness the white mat burnt out on that side
        # (calibrate camera --source render:draw=5p failed its own check, "washed out").
        self.camera = camera if camera is not None else Camera(nudge_px=4.0, tilt=0.01,
                                                               brightness=EXPOSURE)
        self.vary = vary
        self.hidden_markers: tuple[int, ...] = ()
        self.message = "ok"
        self._seed = seed
        self._frames = 0
        self._scene_seed = seed

    def place(self, slot: Slot, label: str) -> None:
        """Put a tile (READER_LABELS label) on ``slot``; it keeps its spot until moved."""
        self.tiles[slot] = label
        self._scene_seed += 1

    def remove(self, slot: Slot) -> None:
        self.tiles.pop(slot, None)
        self._scene_seed += 1

    def read(self) -> np.ndarray | None:
        # The tiles' look and spots follow the scene seed; the camera noise changes per frame.
        self._frames += 1
        frame = render_scene(self.tiles, np.random.default_rng(self._scene_seed), vary=self.vary,
                             camera=self.camera, hide_markers=self.hidden_markers)
        noise = np.random.default_rng((self._seed, self._frames)).normal(0, 2.0, frame.shape)
        out: np.ndarray = np.clip(frame + noise, 0, 255).astype(np.uint8)
        return out

    def close(self) -> None:
        self.message = "closed"


def parse_tiles_spec(text: str) -> dict[Slot, str]:
    """``draw=5p,room_tl=1z`` -> {Slot.DRAW: '5p', Slot.ROOM_TL: '1z'}."""
    from companion.systems.jongrogue.tiles import BACK, EMPTY, Tile

    tiles: dict[Slot, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, label = part.partition("=")
        try:
            slot = Slot(name.strip())
        except ValueError:
            known = ", ".join(s.value for s in Slot)
            raise InvalidNotation(f"{name!r} is not a mat slot (one of {known})") from None
        label = label.strip()
        tiles[slot] = label if label in (BACK, EMPTY) else str(Tile.from_notation(label))
    return tiles


def refuse_mistyped(spec: str) -> None:
    """Raise :class:`DeviceError` for a source that can name nothing, naming the setting
    that chose it: an empty one (a path made of it is the current folder, or "None"), or
    ``camera:`` followed by neither a number nor a device path (no cable is at fault;
    camaudit69 NITs 4 and 7). The check is :func:`~companion.hw.camera.choice.mistyped`,
    ``config --show``'s and play's start's too (reviewa73 NIT 7: two copies)."""
    written = spec.written if isinstance(spec, CameraChoice) else spec
    if (reason := mistyped(written)) is not None:
        where = f"{spec.setting}: " if isinstance(spec, CameraChoice) else ""
        raise DeviceError(f"{where}{reason}")


def _webcam_device(spec: str) -> int | str | None:
    """The device of the webcam ``spec`` names (``camera:0``, ``0``, ``/dev/video2``, or
    another path to its device: :func:`~companion.hw.camera.choice.names_a_device`), or
    None when it names another source."""
    if spec.startswith("camera:"):
        device = spec.removeprefix("camera:")
        return int(device) if device.isdigit() else device
    if spec.isdigit():
        return int(spec)
    if spec.startswith("/dev/video") or names_a_device(spec):
        return str(spec)
    return None


def camera_named(spec: str) -> str | None:
    """The camera ``spec`` names, one name however it is written (``camera:2``, ``2`` and
    ``/dev/video2`` are ``/dev/video2``, a link to it followed; the Pi camera is
    ``picamera``), or None for a picture, a folder, a video or a rendered scene: to tell
    whether two settings choose the same camera, opening neither."""
    if spec in ("picamera", "picamera:"):
        return "picamera"
    device = _webcam_device(spec)
    if device is None:
        return None
    return str(device_node(device).resolve())


def webcam_missing(spec: str) -> str | None:
    """Why the webcam ``spec`` names cannot be opened now, or None when it opens (it is
    closed again) or ``spec`` names no webcam. For a command that gives up at once, as
    calibration does; the game's tile camera waits for one to be plugged in instead. (The
    dice camera refuses at once only a webcam whose device node is gone, and waits
    for one there but giving no picture yet: ``CameraStream.refuse_absent``.) Raises
    :class:`DeviceError` for a source that can name nothing, empty or a mistyped
    ``camera:`` (:func:`refuse_mistyped`; reviewc69 NIT 5)."""
    refuse_mistyped(spec)
    device = _webcam_device(spec)
    if device is None:
        return None
    camera = OpenCVCamera(device, chosen_in=chosen_in(spec))
    try:
        return None if camera.open() else camera.message.removesuffix("; retrying")
    finally:
        camera.close()


def open_source(spec: str) -> FrameSource:
    """Open a frame source from its description (see the module docstring). One that can
    never give a frame (no such file) raises :class:`DeviceError`, naming the setting that
    chose it when ``spec`` is a :class:`~companion.hw.camera.choice.CameraChoice`."""
    refuse_mistyped(spec)
    device = _webcam_device(spec)
    if device is not None:
        return OpenCVCamera(device, chosen_in=chosen_in(spec))
    if spec in ("picamera", "picamera:"):
        return PicameraSource(usb=usb_instead(spec),
                              instead=spec.instead if isinstance(spec, CameraChoice) else "")
    if spec.startswith("render:"):
        try:
            return RenderedSource(parse_tiles_spec(spec.removeprefix("render:")))
        except InvalidNotation as exc:
            if isinstance(spec, CameraChoice):  # say which setting holds it
                raise InvalidNotation(f"{spec.setting}: {exc}") from None
            raise
    assert names_a_file(spec)  # what is left is a path
    if isinstance(spec, CameraChoice) and not Path(spec).exists():
        # Not typed here: say where it was set, as it was written, and where it was looked for.
        looked = f" at {spec}" if spec.written != spec else ""
        raise DeviceError(f"{spec.setting}: {spec.written}: no such camera, picture, folder "
                          f"or video{looked} (cameras are camera:0, /dev/video0 or picamera)")
    try:
        return FileSource(Path(spec))
    except DeviceError as exc:
        if isinstance(spec, CameraChoice):
            raise DeviceError(f"{spec.setting}: {exc}") from None
        raise

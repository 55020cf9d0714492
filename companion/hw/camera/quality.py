"""How good the camera's view of the mat is for reading tiles (``companion calibrate camera``):
markers, focus, exposure and glare measured on the rectified mat, each check with its fix in
words."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.hw.camera.mat import MatDetection, MatDetector
from companion.hw.camera.reader import out_of_view_message
from companion.hw.ports import SLOT_NAMES, Slot

MIN_FOCUS = 60.0  # variance of the Laplacian over the rectified mat; below it looks soft


EXPOSURE_RANGE = (110.0, 240.0)  # median grey of the paper

# Focus, the variance of the Laplacian, falls with the picture's contrast: on dark paper a
# sharp mat measures soft, and one truly soft is not told from it (a camera's noise keeps
# the figure up however blurred). So under EXPOSURE_RANGE's floor focus is not judged: a
# maker told to turn the ring of a focused lens (a v2 module's is glued) makes it worse
# (cal66 R2). MIN_FOCUS is unchanged: it holds at the light it was measured in.
#: What focuses an autofocus camera, which has no lens ring to turn: the BOM's Camera Module
#: 3 focuses itself from 10 cm on (a78tilecam RISK 2).
AUTOFOCUS = ("an autofocus camera, as the Camera Module 3, has no ring: keep it 10 cm or more "
             "from the mat")
FOCUS_IN_THE_DARK = ("; its focus ({focus:.0f}) cannot be judged in this light: calibrate "
                     "again once it is lit")


BURNT_OUT = 250  # a grey this high has lost the picture's detail


MAX_GLARE = 0.01  # share of burnt-out pixels in a slot


@dataclass(frozen=True, slots=True)
class PictureQuality:
    """How good the camera's view of the mat is; each check has a fix in words."""

    focus: float
    exposure: float
    glare: dict[Slot, float]  # each slot's share of burnt-out pixels
    hidden: tuple[str, ...] = ()  # the corners ("top-left") whose marker was not seen
    burnt_colours: tuple[str, ...] = ()  # the colours ("red") the paper is burnt out in
    out_of_view: tuple[Slot, ...] = ()  # the slots the frame cuts off

    @property
    def worst_glare(self) -> float:
        return max(self.glare.values(), default=0.0)

    def problems(self) -> list[str]:
        found = []
        if self.out_of_view:
            found.append(out_of_view_message(self.out_of_view))
        if self.hidden:
            markers = "marker is" if len(self.hidden) == 1 else "markers are"
            found.append(f"the {' and '.join(self.hidden)} corner {markers} not seen: "
                         "uncover the mat's corners and keep the whole mat in view")
        dark = self.exposure < EXPOSURE_RANGE[0]
        if self.focus < MIN_FOCUS and not dark:
            found.append(f"the picture is soft (focus {self.focus:.0f} < {MIN_FOCUS:.0f}): "
                         "turn the lens ring or move the camera to its focus distance "
                         f"({AUTOFOCUS})")
        if dark:
            found.append(f"the mat looks dark (paper grey {self.exposure:.0f}): add light"
                         + (FOCUS_IN_THE_DARK.format(focus=self.focus)
                            if self.focus < MIN_FOCUS else ""))
        if self.exposure > EXPOSURE_RANGE[1]:
            found.append(f"the mat looks washed out (paper grey {self.exposure:.0f}): "
                         "less light or lower exposure")
        # A coloured lamp can burn one colour out while the paper's grey looks fine (a warm
        # bulb, red): the red of 中 and 萬 then loses its contrast there, and the lamp's
        # colour can no longer be taken out by the paper (white_balance.py).
        if self.burnt_colours and self.exposure <= EXPOSURE_RANGE[1]:
            found.append(f"the paper is burnt out in {' and '.join(self.burnt_colours)} "
                         "(a coloured lamp): less light or lower exposure")
        glared = [f"{SLOT_NAMES[slot]} ({share:.1%})" for slot, share in self.glare.items()
                  if share > MAX_GLARE]
        # On washed-out paper every slot is burnt out: that is the exposure, said above,
        # not a lamp's reflection.
        if glared and self.exposure <= EXPOSURE_RANGE[1]:
            found.append(f"glare in the {', '.join(glared)} slot{'s' if len(glared) > 1 else ''}"
                         ": move the lamp to the side")
        return found


def measure_quality(mat_image: np.ndarray, detector: MatDetector,
                    detection: MatDetection) -> PictureQuality:
    """Markers, focus, exposure, each slot's glare and the colours the paper is burnt out
    in, on a rectified mat image (``detector.warp`` of the frame ``detection`` was found in).

    Only what the frame shows is measured: the part of the mat outside it is black in
    ``mat_image``, which is not dark paper (nor in focus, nor glare-free); the slots it
    cuts off are named instead.
    """
    inside = detector.in_frame(detection, None)
    grey = cv2.cvtColor(mat_image, cv2.COLOR_BGR2GRAY)
    # The edge of the frame is a sharp step from the mat to the black fill: not focus.
    inner = cv2.erode(inside.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    focus = float(cv2.Laplacian(grey, cv2.CV_64F)[inner].var())
    g = detector.geometry
    out_of_view = detector.out_of_view(detection)
    glare = {}
    for spec in g.slots:
        if spec.slot in out_of_view:
            continue
        x, y = round(spec.rect.x_mm * g.px_per_mm), round(spec.rect.y_mm * g.px_per_mm)
        w, h = g.size_px(spec.rect)
        glare[spec.slot] = float((grey[y : y + h, x : x + w] >= BURNT_OUT).mean())
    paper = np.median(mat_image[inside], axis=0)  # the mat is mostly paper
    burnt = tuple(colour for colour, level in zip(("blue", "green", "red"), paper, strict=True)
                  if level >= BURNT_OUT)
    return PictureQuality(focus, float(np.median(grey[inside])), glare,
                          detector.hidden_corners(detection.markers_seen), burnt, out_of_view)

"""Calibration's enrolment with every kind skipped (calib62's tests; tidy72c: no test module
imports another)."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.calibrate.camera import enrol_on_mat
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.paths import config_dir
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import Enrolment, TileClassifier
from companion.hw.camera.mat import MatDetector


def every_kind_skipped() -> tuple[list[str], Callable[[str], str]]:
    """The prompts of an enrolment on an empty mat, each kind asked for skipped (s), and
    the player who skipped them: asked again, they answer s and add the prompt to the
    list."""
    classifier = TileClassifier()
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "s"

    enrol_on_mat(RenderedSource({}), MatDetector(), classifier, ask,
                 Enrolment(model=classifier.model_id), config_dir() / ENROLMENT_FILE)
    return prompts, ask

"""The ONNX tile classifier and the enrolment layer that adapts it to the player's own set.

The model file comes with a JSON file holding everything needed to use it:
the labels in MPSZ (plus ``back`` and ``empty``), the input size and
normalisation, the reader's defaults and what the model was trained on. None
of that is repeated in code.

A tile may lie any way round. The metadata's ``input.turns`` lists the
quarter turns every crop is read at (``[0, 2]``: as it is and upside down;
the probabilities are averaged), and ``input.portrait`` turns a landscape
crop, a tile lying sideways, upright before it is read.

Enrolment keeps a few embeddings per kind, photographed from the player's
own tiles; a nearest-neighbour vote over them is blended into the model's
probabilities, so an unusual art style is learned from one or two pictures.
The embeddings mean something only to the model that made them: an enrolment
keeps that model's fingerprint, and one made with another model (the
companion updated since) is refused with ``StaleEnrolment``.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import DataError, StaleEnrolment
from companion.files import TOO_DEEP, atomic_write_npz, loads_json, read_npz
from companion.hw.onnx_session import fingerprint, open_session
from companion.hw.ports import Candidate
from companion.systems.jongrogue.tiles import READER_LABELS

MODEL_ENV = "COMPANION_TILE_MODEL"
MODEL_NAME = "tile_classifier.onnx"
LANDSCAPE = 1.1  # a crop this much wider than tall shows a tile lying sideways
#: In backticks, which the app names as the player can type it here (camera73 NIT 3).
ENROL_AGAIN = "run `companion calibrate camera --enrol` again"
#: The most frames a slot's read may be asked to agree over: at a few frames a second more
#: would never settle while a hand is near, so a larger number is a slip, not a setting.
MAX_STABLE_FRAMES = 100
#: ``enrolment.same`` of a model whose metadata was written before it (bcced4ec), as
#: ``input.turns`` and ``input.portrait`` have theirs: the cosine measured on this
#: checkout's model (its ``same_why``), so a model trained by the earlier
#: train_tile_classifier.py loads, not refused as malformed, and reads with the rule
#: (reviewcam73 NIT 2).
#: A metadata saying 1.0 keeps the vote at ``enrolment.weight`` (but for the picture itself).
SAME_DEFAULT = 0.85
#: Enrolled labels that are no tile's face: their pictures' vote never decides alone.
NOT_TILES = ("back", "empty")


def default_model_path() -> Path:
    """``$COMPANION_TILE_MODEL``, else ``models/tile_classifier.onnx`` of this checkout."""
    override = os.environ.get(MODEL_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[3] / "models" / MODEL_NAME


def folder_not_model(folder: Path, from_env: bool) -> str:
    """What is wrong with ``--model`` (or ``$COMPANION_TILE_MODEL`` when ``from_env``) naming
    a folder, and the fix: the tile_classifier.onnx in it when it holds one. It was said as
    "the tile model is missing; reinstall it", and the model was there (camera75 NIT 4)."""
    inside = folder / MODEL_NAME
    if not inside.is_file():
        where = MODEL_ENV if from_env else "--model"
        return (f"a folder, not the tile model, and no {MODEL_NAME} in it; point {where} at "
                f"a {MODEL_NAME} (with its .json beside it)")
    fix = f"point {MODEL_ENV} at it" if from_env else f"give --model {inside}"
    return f"a folder, not the tile model: the model is {inside} in it; {fix}"


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """The model's metadata (``tile_classifier.json``), shape-checked."""

    classes: tuple[str, ...]
    width: int
    height: int
    rgb: bool
    scale: float
    mean: tuple[float, float, float]
    std: tuple[float, float, float]
    stable_frames: int
    min_confidence: float  # a slot's read below it is uncertain
    picture_confidence: float  # a picture of one tile (``companion classify``) below it: unsure
    top_k: int
    enrol_weight: float
    enrol_temperature: float
    enrol_alike: float  # an enrolled picture less alike than this cosine: the model's reading
    enrol_same: float  # a crop this alike (cosine) to an enrolled picture is of its kind
    measured: dict[str, Any]
    turns: tuple[int, ...] = (0,)  # quarter turns each crop is read at; probabilities averaged
    portrait: bool = False  # a landscape crop (a tile lying sideways) is turned upright first

    @staticmethod
    def load(path: Path, fix: str = f"point {MODEL_ENV} at tile_classifier.onnx") -> ModelInfo:
        """``path``'s metadata; ``fix`` says what to do when it cannot be read."""
        try:
            data = loads_json(path.read_text(encoding="utf-8"))
            _check_shape(path, data, fix)
            inp, reader = _at(data, "input"), _at(data, "reader")
            info = ModelInfo(
                classes=tuple(_at(data, "classes")),
                width=int(_at(data, "input.width")), height=int(_at(data, "input.height")),
                rgb=_at(data, "input.channels") == "RGB", scale=float(_at(data, "input.scale")),
                mean=tuple(float(v) for v in _at(data, "input.mean")),  # type: ignore[arg-type]
                std=tuple(float(v) for v in _at(data, "input.std")),  # type: ignore[arg-type]
                stable_frames=int(_at(data, "reader.stable_frames")),
                min_confidence=float(_at(data, "reader.min_confidence")),
                picture_confidence=float(reader.get("picture_confidence",
                                                    _at(data, "reader.min_confidence"))),
                top_k=int(_at(data, "reader.top_k")),
                enrol_weight=float(_at(data, "enrolment.weight")),
                enrol_temperature=float(_at(data, "enrolment.temperature")),
                enrol_alike=float(_at(data, "enrolment.alike")),
                enrol_same=float(_at(data, "enrolment").get("same", SAME_DEFAULT)),
                measured=dict(data.get("measured", {})),
                turns=tuple(int(t) % 4 for t in inp.get("turns", [0])),
                portrait=bool(inp.get("portrait", False)),
            )
        except OSError as exc:
            raise DataError(f"{path}: cannot read the model metadata ({exc.strerror}); "
                            f"{fix}") from exc
        except UnicodeDecodeError as exc:
            raise DataError(f"{path}: model metadata is not text (not UTF-8), so not the "
                            f"model's .json; {fix}") from exc
        except json.JSONDecodeError as exc:
            # Said in words, not as JSONDecodeError('Expecting value: …') (camera75 NIT 3).
            # Blank space alone is no "0 bytes" (reviewcam75 NIT 5c).
            what = ("the file is empty (0 bytes: a cut copy?)" if not exc.doc
                    else "the file holds only blank space, no metadata" if not exc.doc.strip()
                    else f"model metadata is malformed: {TOO_DEEP}" if exc.msg == TOO_DEEP
                    else f"model metadata is not JSON (line {exc.lineno}, column {exc.colno}: "
                         f"{exc.msg})")
            raise DataError(f"{path}: {what}; {fix}") from exc
        except DataError:
            raise  # said by _check_shape as it is
        except MissingKey as exc:
            # Said as a key, not as KeyError('enrolment') (camera71 NIT 8).
            raise DataError(f"{path}: model metadata is malformed: '{exc.dotted}' is missing; "
                            f"{fix}") from exc
        except (ValueError, KeyError, TypeError, OverflowError) as exc:  # int(1e999)
            raise DataError(f"{path}: model metadata is malformed ({exc!r}); {fix}") from exc
        if unknown := set(info.classes) - set(READER_LABELS):
            raise DataError(f"{path}: 'classes' has labels no reader knows: {sorted(unknown)}")
        if not info.turns or info.turns[0] != 0:
            raise DataError(f"{path}: 'input.turns' must start with 0 (the crop as it is)")
        if len(info.mean) != 3 or len(info.std) != 3:
            raise DataError(f"{path}: 'input.mean'/'input.std' need 3 values")
        if repeated := sorted({c for c in info.classes if info.classes.count(c) > 1}):
            raise DataError(f"{path}: 'classes' names {', '.join(repeated)} more than once "
                            "(each output of the model is one label)")
        _check_numbers(path, info, _at(data, "input.channels"))
        return info


#: The metadata's format this companion reads; a newer trainer's is refused, not read by
#: these rules without a word, as the fight and save files refuse a newer format.
FORMAT = 1


def _check_shape(path: Path, data: Any, fix: str) -> None:
    """Refuse metadata of a newer format, a section of the wrong kind (said as what it must
    be, not as TypeError("'int' object is not iterable")), and an input laid out or resized
    otherwise than the reader feeds it (NCHW, OpenCV's INTER_AREA): a model wanting NHWC or
    cubic was fed as ours all the same (a78tilecam NIT 5). A model made before a key was
    written reads as format 1, NCHW, area."""
    if not isinstance(data, dict):
        raise DataError(f"{path}: model metadata must be a JSON object, found "
                        f"{json.dumps(data)}; {fix}")
    made = data.get("format", FORMAT)
    if isinstance(made, int) and not isinstance(made, bool) and made > FORMAT:
        raise DataError(f"{path}: the model was made by a newer companion (metadata format "
                        f"{made}; this one reads {FORMAT}): update the companion")
    if made != FORMAT or isinstance(made, bool):
        raise DataError(f"{path}: 'format' must be {FORMAT}, found {json.dumps(made)}; "
                        f"{fix}")
    if "classes" in data and not isinstance(data["classes"], list):
        raise DataError(f"{path}: 'classes' must be a list of labels, found "
                        f"{json.dumps(data['classes'])}; {fix}")
    for section in ("input", "reader", "enrolment", "measured"):
        if section in data and not isinstance(data[section], dict):
            raise DataError(f"{path}: '{section}' must be a table, found "
                            f"{json.dumps(data[section])}; {fix}")
    for key, fed in (("layout", "NCHW"), ("resize", "area")):
        given = data.get("input", {}).get(key, fed)
        if given != fed:
            raise DataError(f"{path}: 'input.{key}' must be \"{fed}\" (as the reader feeds "
                            f"the model), found {json.dumps(given)}; {fix}")


class MissingKey(KeyError):
    """A key the tile model's metadata lacks, named as a dotted path (``reader.top_k``)."""

    def __init__(self, dotted: str) -> None:
        super().__init__(dotted)
        self.dotted = dotted


def _at(data: Any, dotted: str) -> Any:
    """The value at ``dotted`` (``input.width``) in the metadata ``data``; MissingKey naming
    the first part of it missing (``input``, when the whole section is)."""
    value, parts = data, dotted.split(".")
    for n, part in enumerate(parts):
        if isinstance(value, dict) and part not in value:
            raise MissingKey(".".join(parts[: n + 1]))
        value = value[part]
    return value


def _check_numbers(path: Path, info: ModelInfo, channels: object) -> None:
    """Refuse metadata numbers the reader cannot use, naming the key: each would otherwise
    crash the first read at the table, mid-turn (a size of 0, top_k past the classes), or
    read every tile as nothing without a word (std 0 makes every number NaN)."""
    def finite(values: tuple[float, ...]) -> bool:
        return all(math.isfinite(v) for v in values)

    classes = len(info.classes)
    checks: list[tuple[str, object, bool, str]] = [
        ("input.width", info.width, info.width >= 1, "a whole number 1 or more"),
        ("input.height", info.height, info.height >= 1, "a whole number 1 or more"),
        ("input.channels", channels, channels in ("RGB", "BGR"), '"RGB" or "BGR"'),
        ("input.scale", info.scale, finite((info.scale,)) and info.scale > 0,
         "a number above 0"),
        ("input.mean", list(info.mean), finite(info.mean), "3 numbers"),
        ("input.std", list(info.std), finite(info.std) and min(info.std) > 0,
         "3 numbers above 0"),
        ("reader.stable_frames", info.stable_frames,
         1 <= info.stable_frames <= MAX_STABLE_FRAMES,
         f"a whole number from 1 to {MAX_STABLE_FRAMES}"),
        ("reader.min_confidence", info.min_confidence, 0 < info.min_confidence < 1,
         "a number above 0 and below 1"),
        ("reader.picture_confidence", info.picture_confidence,
         0 < info.picture_confidence < 1, "a number above 0 and below 1"),
        ("reader.top_k", info.top_k, 1 <= info.top_k <= classes,
         f"a whole number from 1 to {classes} (the classes)"),
        ("enrolment.weight", info.enrol_weight, 0 <= info.enrol_weight <= 1,
         "a number from 0 to 1"),
        ("enrolment.temperature", info.enrol_temperature,
         finite((info.enrol_temperature,)) and info.enrol_temperature > 0, "a number above 0"),
        ("enrolment.alike", info.enrol_alike, -1 <= info.enrol_alike <= 1,
         "a number from -1 to 1 (a cosine)"),
        ("enrolment.same", info.enrol_same, info.enrol_alike < info.enrol_same <= 1,
         f"a cosine above 'enrolment.alike' ({info.enrol_alike}) and at most 1"),
    ]
    for key, value, good, should in checks:
        if not good:
            raise DataError(f"{path}: '{key}' must be {should}, found {value!r}")


@dataclass(frozen=True, slots=True)
class Prediction:
    """The classifier's view of one crop: best-first candidates and the crop's embedding."""

    candidates: tuple[Candidate, ...]
    embedding: np.ndarray

    @property
    def best(self) -> Candidate:
        return self.candidates[0]


class Enrolment:
    """Embeddings of the player's own tiles, by label, and the nearest-neighbour vote over
    them; ``model`` is the fingerprint of the model that made the embeddings ("" for an
    enrolment saved before enrolments kept it)."""

    def __init__(self, labels: list[str] | None = None,
                 embeddings: np.ndarray | None = None, model: str = "") -> None:
        self.labels: list[str] = list(labels or [])
        self.embeddings = (
            embeddings if embeddings is not None else np.zeros((0, 0), np.float32)
        )
        self.model = model

    def __len__(self) -> int:
        return len(self.labels)

    def add(self, label: str, embedding: np.ndarray) -> None:
        if label not in READER_LABELS:
            raise DataError(f"cannot enrol {label!r}: not a tile, 'back' or 'empty'")
        row = embedding.reshape(1, -1).astype(np.float32)
        self.embeddings = row if not len(self) else np.vstack([self.embeddings, row])
        self.labels.append(label)

    def blend(self, probs: np.ndarray, embeddings: np.ndarray, info: ModelInfo) -> np.ndarray:
        """The model's ``probs`` blended with the enrolled pictures' vote.

        Each enrolled kind votes by its nearest picture's cosine to the crop, and beside them
        "like none of them" by ``enrol_alike`` (the cosine of two tiles of one kind is about
        0.9, of two kinds about 0.1 or less): that share of the vote is the model's own
        reading. So a crop like an enrolled picture leans to its kind, and a kind the player
        did not enrol (they stopped after a few) is read as the model reads it, not pulled to
        the nearest kind enrolled.

        How much the vote counts depends on how alike the crop is to its nearest enrolled
        picture. At ``enrol_same`` or more (the metadata says why that cosine: pictures of
        one kind are that alike, pictures of two kinds are not) the crop is a picture of
        that kind, and the vote alone decides, when that picture is of a tile. A ``back``
        or ``empty`` picture never decides alone: a blank White is as alike to them as
        that, and the mat under the slot, not the face, tells bare paper from a White
        (reviewcam73 RISK 1). Otherwise the vote counts ``enrol_weight``, and the model
        keeps the rest. With ``enrol_weight`` alone (camera73 DEFECT 1), a kind
        the model reads as another stayed at about 0.5, below the reader's threshold. That
        is the very kind a player enrols, and it read "uncertain" on every draw.
        """
        similarity = embeddings @ self.embeddings.T  # cosine: both sides are unit length
        best = np.full((len(embeddings), len(info.classes) + 1), -np.inf, np.float32)
        best[:, -1] = info.enrol_alike
        column = {c: i for i, c in enumerate(info.classes)}
        for j, label in enumerate(self.labels):
            i = column[label]
            best[:, i] = np.maximum(best[:, i], similarity[:, j])
        logits = best / info.enrol_temperature
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        weights /= weights.sum(axis=1, keepdims=True)
        vote = weights[:, :-1] + weights[:, -1:] * probs
        nearest = best[:, :-1].max(axis=1, keepdims=True)
        # Of a tile kind: bare paper and a tile's back are as alike to a blank White as
        # two pictures of one kind are (renders: up to 0.965 and 0.911), so their vote
        # alone would decide a White; what is under the slot tells them apart (reviewcam73
        # RISK 1).
        tile = ~np.isin(best[:, :-1].argmax(axis=1, keepdims=True),
                        [column[c] for c in NOT_TILES if c in column])
        weight = np.where((nearest >= info.enrol_same) & tile, 1.0, info.enrol_weight)
        out: np.ndarray = ((1 - weight) * probs + weight * vote).astype(probs.dtype)
        return out

    def save(self, path: Path) -> None:
        atomic_write_npz(path, labels=np.array(self.labels), embeddings=self.embeddings,
                         model=np.array(self.model))

    @staticmethod
    def load(path: Path) -> Enrolment:
        """The enrolment saved at ``path``.

        A file that is not one list of tiles and one row of finite numbers per tile is
        refused with a DataError saying to enrol again: read as it is, its embeddings
        would crash every read (or make each NaN), ``calibrate camera --enrol``'s own
        repair of it included. (Whether the rows are as long as the model's embeddings:
        :meth:`TileClassifier.load_enrolment`.)
        """
        data = read_npz(path, ("labels", "embeddings"), "the enrolled tiles", ENROL_AGAIN)
        labels, embeddings = data["labels"], data["embeddings"]
        model = str(data["model"]) if "model" in data else ""
        problem = ""
        if labels.ndim != 1 or embeddings.ndim != 2 or len(labels) != len(embeddings):
            problem = "its tiles and their embeddings do not match up"
        elif not np.issubdtype(embeddings.dtype, np.number) \
                or np.issubdtype(embeddings.dtype, np.complexfloating):
            problem = "its embeddings are not numbers"
        elif not np.isfinite(embeddings := _as_float32(embeddings)).all():
            problem = "some of its embeddings are not numbers (NaN), infinite or too large"
        elif unknown := sorted({str(x) for x in labels} - set(READER_LABELS)):
            problem = f"{', '.join(map(repr, unknown))} is not a tile, 'back' or 'empty'"
        if problem:
            raise DataError(f"{path}: cannot read the enrolled tiles ({problem}); "
                            f"{ENROL_AGAIN}")
        return Enrolment([str(x) for x in labels], embeddings, model)


def _as_float32(numbers: np.ndarray) -> np.ndarray:
    """``numbers`` as float32, as they are read; one too large for it becomes inf there (a
    float64 1e300 is finite, so it is checked after this, not before)."""
    with np.errstate(over="ignore"):
        return numbers.astype(np.float32)


class TileClassifier:
    """Names tiles in rectified crops with the ONNX model (``threads`` CPU threads)."""

    def __init__(self, model_path: Path | None = None, *, threads: int = 1,
                 enrolment: Enrolment | None = None) -> None:
        path = model_path if model_path is not None else default_model_path()
        self.path = path
        # The player who typed --model fixes that path, not the install (camaudit69 NIT 3).
        hint = (f"reinstall it or point {MODEL_ENV} at a good copy" if model_path is None
                else "check --model's path (a tile_classifier.onnx with its .json beside it)")
        if path.is_dir():
            raise DataError(f"{path}: {folder_not_model(path, model_path is None)}")
        if not path.is_file():  # before its metadata: the file named is what is wrong
            raise DataError(f"{path}: the tile model is missing; {hint}")
        self.info = ModelInfo.load(path.with_suffix(".json"),
                                   f"point {MODEL_ENV} at tile_classifier.onnx"
                                   if model_path is None else hint)
        self._session = open_session(path, "tile model", hint, threads)
        # Which model this is, for enrolments: its file's fingerprint.
        self.model_id = fingerprint(path)
        self.enrolment = Enrolment(model=self.model_id)
        if enrolment is not None:
            self.enrol(enrolment)
        outputs = self._session.get_outputs()
        if [o.name for o in outputs[:2]] != ["logits", "embedding"]:
            raise DataError(f"{path}: expected outputs 'logits' and 'embedding', got "
                            f"{[o.name for o in outputs]}")
        self._check_shapes(outputs[0].shape, self._session.get_inputs()[0].shape)
        # How many numbers an embedding has, for checking an enrolment (None: not said).
        width = outputs[1].shape[-1]
        self.embedding_width: int | None = width if isinstance(width, int) else None
        self._input = self._session.get_inputs()[0].name
        mean = np.array(self.info.mean, np.float32)
        std = np.array(self.info.std, np.float32)
        # fold scale, mean and std into one multiply-add per pixel
        self._mul = (self.info.scale / std).reshape(1, 3, 1, 1)
        self._add = (-mean / std).reshape(1, 3, 1, 1)

    def _check_shapes(self, logits: list[Any], image: list[Any]) -> None:
        """The metadata must fit the model (a size the model leaves open is not checked): a
        class per output, or labels are read off the wrong outputs; the crop size it takes,
        or the first read fails inside onnxruntime."""
        meta = self.path.with_suffix(".json")
        outputs = logits[-1]
        if isinstance(outputs, int) and outputs != len(self.info.classes):
            raise DataError(f"{meta}: 'classes' has {len(self.info.classes)} labels, but the "
                            f"model {self.path.name} gives {outputs} answers")
        for key, size, wanted in (("input.height", self.info.height, image[-2]),
                                  ("input.width", self.info.width, image[-1])):
            if isinstance(wanted, int) and size != wanted:
                raise DataError(f"{meta}: '{key}' is {size}, but the model {self.path.name} "
                                f"takes {wanted}")

    def enrol(self, enrolment: Enrolment) -> None:
        """Blend the model's answers with ``enrolment`` from now on.

        Raises StaleEnrolment for an enrolment another model made."""
        if len(enrolment) and enrolment.model != self.model_id:
            raise StaleEnrolment("the enrolled tiles were taught to another tile model than "
                                 "this one (the companion updated since, or enrolled with "
                                 "`calibrate camera --model`); run `companion calibrate "
                                 "camera --enrol` again")
        self.enrolment = enrolment

    def load_enrolment(self, path: Path) -> Enrolment:
        """The enrolment saved at ``path`` (:meth:`Enrolment.load`); a DataError for one
        whose embeddings are not as long as this model's, though this model made it (its
        blend would crash every read). One another model made is for :meth:`enrol` to
        refuse as stale: its length means nothing."""
        enrolment = Enrolment.load(path)
        width = self.embedding_width
        if len(enrolment) and enrolment.model == self.model_id and width is not None \
                and enrolment.embeddings.shape[1] != width:
            raise DataError(f"{path}: cannot read the enrolled tiles (their embeddings have "
                            f"{enrolment.embeddings.shape[1]} numbers each, not the {width} "
                            f"this tile model gives); {ENROL_AGAIN}")
        return enrolment

    def preprocess(self, crops: list[np.ndarray]) -> np.ndarray:
        """BGR (or grey) crops -> the model's NCHW float input, as the metadata says."""
        size = (self.info.width, self.info.height)
        batch = np.empty((len(crops), size[1], size[0], 3), np.uint8)
        for i, crop in enumerate(crops):
            if crop.ndim == 2:
                crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
            if self.info.portrait and crop.shape[1] > crop.shape[0] * LANDSCAPE:
                crop = np.rot90(crop)  # a tile lying sideways; the half turn is read as well
            small = cv2.resize(crop[..., :3], size, interpolation=cv2.INTER_AREA)
            batch[i] = small[..., ::-1] if self.info.rgb else small
        x: np.ndarray = batch.transpose(0, 3, 1, 2).astype(np.float32) * self._mul + self._add
        return x

    def raw(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Model probabilities (after enrolment) and embeddings for a batch of crops.

        Each crop is read at every turn in the metadata's ``input.turns`` (a
        tile may lie upside down); the probabilities are averaged and the
        embedding is the crop's as it is.
        """
        x = self.preprocess(crops)
        turns = self.info.turns
        if len(turns) > 1:  # turning the square network input is turning the crop
            x = np.concatenate([np.rot90(x, -t, axes=(2, 3)) for t in turns])
        logits, embeddings = self._session.run(None, {self._input: np.ascontiguousarray(x)})
        logits = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        if len(turns) > 1:
            n = len(crops)
            probs = probs.reshape(len(turns), n, -1).mean(axis=0)
            embeddings = embeddings[:n]
        if len(self.enrolment):
            probs = self.enrolment.blend(probs, embeddings, self.info)
        return probs, embeddings

    def predict(self, crops: list[np.ndarray]) -> list[Prediction]:
        """Best-first top-k candidates (and the embedding) for each crop."""
        if not crops:
            return []
        probs, embeddings = self.raw(crops)
        k = self.info.top_k
        out = []
        for p, e in zip(probs, embeddings, strict=True):
            order = np.argsort(-p)[:k]
            out.append(Prediction(
                tuple(Candidate(self.info.classes[i], float(p[i])) for i in order), e
            ))
        return out

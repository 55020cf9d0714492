"""The player's own dice, enrolled: a nearest-neighbour layer on the judge's embedding.

``companion calibrate dice --enrol`` has the player throw their dice a few times and
type the values thrown. Each die read is paired with a value typed (the judge's surest
pairing first, see :func:`pair_values`), and the judge's embedding of its window (the
features its last layer weighs, L2-normalised) is kept with that value, in
``dice_enrol.npz`` beside ``dice.toml`` in the config folder.

When reading, every window the judge sees is also compared with the enrolled ones: when
its K nearest enrolled windows are at least MIN_SIMILAR alike (cosine), their values vote
(weighted by likeness), and the judge's answer is blended with the vote, WEIGHT of it.
The vote only moves the judge's belief among the six values and towards a die's top, so
the player's own dice (a colour, pips or an emblem the judge never saw) are read surely,
while a window like none of them (nothing, a leaning side, a blur) is left as it was;
the reader's thresholds still decide. The counter, the reader's second opinion on values,
is not enrolled: a value the enrolled judge reads less than surely still stands only
where the counter confirms it (reader.py, ``_counted``).

What it is worth on real dice (issue 23, ``scripts/eval_dice_reader.py --part test
--enrol 4``, each source's dice enrolled from four of its train photos): no held-out frame
more read fully right, and one fewer (the tray's smoke-black dice stay unclear). The
embedding is the judge's last feature map, so a window's nearest enrolled ones are the
same die more than the same value: its vote helps a die the judge never saw (an emblem on
the 1) more than a die whose pips are hard to see.

An embedding means something only to the judge that made it: the enrolment keeps the
judge's fingerprint (``DiceNetworks.judge_id``), and an enrolment made with another judge
(the companion updated since) is not used (``StaleEnrolment``): the player enrols again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.errors import DataError
from companion.files import aside_command, atomic_write_npz, cut_copies_words, read_npz

if TYPE_CHECKING:
    from companion.hw.dice.networks import DiceNetworks

ENROL_FILE = "dice_enrol.npz"
K = 5
MIN_SIMILAR = 0.8
WEIGHT = 0.6


def normalised(embeddings: np.ndarray) -> np.ndarray:
    flat = embeddings.reshape(len(embeddings), -1).astype(np.float32)
    out: np.ndarray = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)
    return out


@dataclass(frozen=True)
class Enrolment:
    """Enrolled windows: their normalised embeddings (one row each), their values 1..6, and
    the fingerprint of the judge that made the embeddings ("" for an enrolment saved before
    enrolments kept it)."""

    embeddings: np.ndarray
    values: np.ndarray
    judge: str

    def __post_init__(self) -> None:
        if len(self.embeddings) != len(self.values) or not len(self.values):
            raise DataError("its windows and values do not pair up, or there are none")
        if not np.isin(self.values, np.arange(1, 7)).all():
            raise DataError("its values are not all 1 to 6")

    def save(self, path: Path) -> None:
        atomic_write_npz(path, embeddings=self.embeddings.astype(np.float16),
                         values=self.values.astype(np.int8), judge=np.array(self.judge))

    @staticmethod
    def load(path: Path, networks: DiceNetworks | None = None, *,
             copies: bool = True) -> Enrolment | None:
        """The enrolment saved at ``path``, or None when there is none; a DataError naming
        the file when it cannot be used: the values are not 1 to 6, or, made by the judge of
        ``networks``, its windows are not that judge's width (they would fail at the first
        roll). One made by another judge is left to :meth:`DiceNetworks.enrol` to refuse
        (StaleEnrolment: the dice are read without it).

        The DataError names the copies a write of ``path`` cut short left beside it, each
        kept, and one that reads whole with the command that puts it back, as dice.toml's
        does (companion.files.cut_copies_words; dicecam73 NIT 4: a power cut's zeroed file
        with a whole copy beside it said only "enrol again", and the next enrolment's save
        deleted the copy unread). Not with ``copies`` False: for a caller that sets the file
        aside, which keeps and names them itself (companion.files.keep_unreadable), as it
        cannot once they are kept here."""
        try:
            return Enrolment._read(path, networks)
        except DataError as exc:
            if not copies:
                raise
            words = cut_copies_words(path, ENROL_FILE, lambda copy: Enrolment._read(copy, networks),
                                     move=aside_command(path))
            raise DataError(f"{exc}{words}") from None

    @staticmethod
    def _read(path: Path, networks: DiceNetworks | None) -> Enrolment | None:
        """:meth:`load`, without a word of the copies of cut writes."""
        if not path.exists():
            return None
        fix = "run `companion calibrate dice --enrol` again"
        data = read_npz(path, ("embeddings", "values"), "the dice enrolled", fix)
        judge = str(data["judge"]) if "judge" in data else ""
        embeddings, values = data["embeddings"], data["values"]
        try:
            if embeddings.ndim != 2 or values.ndim != 1 \
                    or not np.issubdtype(embeddings.dtype, np.number) \
                    or not np.issubdtype(values.dtype, np.integer):
                raise DataError("its arrays are not of the shape or kind the companion writes")
            with np.errstate(over="ignore"):  # too large for float32 is inf: refused here
                embeddings = embeddings.astype(np.float32)
            if not np.isfinite(embeddings).all():
                raise DataError("its windows hold numbers that are not finite or too large")
            width = None if networks is None else networks.embedding_width
            if networks is not None and judge == networks.judge_id \
                    and width is not None and embeddings.shape[1] != width:
                raise DataError(f"its windows are {embeddings.shape[1]} numbers wide, the "
                                f"dice judge's {width}")
            return Enrolment(embeddings, values.astype(np.int64), judge)
        except DataError as exc:
            raise DataError(f"{path}: cannot read the dice enrolled ({exc}); {fix}") from None

    def width(self) -> int:
        return int(self.embeddings.shape[1])

    def dice(self) -> int:
        """How many dice are enrolled: each die is kept in TURNS rows, one per turned view
        of its window (cal66 D1: the rows were counted as dice, 8 times too many)."""
        from companion.hw.dice.networks import TURNS

        return -(-len(self.values) // TURNS)  # a hand-made enrolment of fewer rows is 1 die

    def adjust(self, probs: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
        """The judge's ``probs`` (one row per window, CLASSES) blended with the enrolled
        windows' vote where a window is like enough to them (see the module)."""
        if embeddings.shape[1:] != self.embeddings.shape[1:]:
            raise DataError("the dice enrolment was made with another judge; run "
                            "`companion calibrate dice --enrol` again")
        similar = normalised(embeddings) @ self.embeddings.T
        out = probs.copy()
        k = min(K, similar.shape[1])
        for i, row in enumerate(similar):
            near = np.argsort(-row)[:k]
            if row[near[0]] < MIN_SIMILAR:
                continue
            near = near[row[near] >= MIN_SIMILAR]
            vote = np.zeros(probs.shape[1], np.float32)
            np.add.at(vote, self.values[near], row[near])
            vote /= vote.sum()
            out[i] = (1 - WEIGHT) * probs[i] + WEIGHT * vote
        return out


def pair_values(probs: np.ndarray, values: list[int]) -> list[int | None]:
    """Each read die's value from the ``values`` the player typed (a multiset): the
    pairing the judge is surest of first, while that value is left; None for a die
    left over (more dice read than typed)."""
    left = {v: values.count(v) for v in set(values)}
    given: list[int | None] = [None] * len(probs)
    pairs = sorted(((float(probs[i, v]), i, v) for i in range(len(probs)) for v in left),
                   reverse=True)
    done: set[int] = set()
    for _, i, v in pairs:
        if i in done or left[v] == 0:
            continue
        done.add(i)
        left[v] -= 1
        given[i] = v
    return given

"""The companion keeps numpy's OpenBLAS to one thread: an enrolment's vote (a small matrix
product on every read) would otherwise start a thread per core that spins between reads,
taking the cores the screen and the camera need (companion/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.companion_process import ROOT

# Threads of a fresh interpreter after an enrolled dice read's vote (24 windows against
# 96 enrolled ones, as wide as the judge's embedding), the companion imported first as the
# `companion` command does.
_ENROLLED_VOTE = """
import os
from companion.hw.dice.enrol import Enrolment
import numpy as np
rng = np.random.default_rng(0)
enrolled = Enrolment(rng.random((96, 1600), np.float32), np.arange(96) % 6 + 1, "judge")
enrolled.adjust(np.full((24, 9), 1 / 9, np.float32), rng.random((24, 1600), np.float32))
print(len(os.listdir("/proc/self/task")))
"""
# The same product in a fresh interpreter that has not imported the companion.
_NUMPY_ALONE = """
import os
import numpy as np
a = np.ones((24, 1600), np.float32)
a @ np.ones((1600, 96), np.float32)
print(len(os.listdir("/proc/self/task")))
"""


def _threads(code: str) -> int:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return int(done.stdout)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_an_enrolled_vote_runs_on_the_reading_thread_alone() -> None:
    if _threads(_NUMPY_ALONE) == 1:
        pytest.skip("numpy's BLAS takes one thread on this machine anyway")
    assert _threads(_ENROLLED_VOTE) == 1

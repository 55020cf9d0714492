"""The bench scripts' figures measure what they say (audit fw65 R1, R2, N1, N2; review65w R2,
N4): run with tiny sizes; the timings themselves are not tested, only what goes into them."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.scripts import load_script

MIB = 1024 * 1024


def test_bench_rfid_reconnect_after_a_replug_includes_the_trays_own_boot() -> None:
    """A replug cuts a real tray's power. The bench replugged a tray that kept running, so
    its figure (about 0.3 s) was the host's backoff and handshake alone."""
    bench = load_script("bench_rfid")
    boot = 1.5  # well past the host's own reopen (~0.25 s), even on a machine that stalls
    figures = bench.bench_tray(1, 1, boot_seconds=boot, away_seconds=(0.0, 0.0))
    assert len(figures.reconnects) == len(figures.reopens) == 1
    # The simulator's clock counts whole milliseconds: its boot may come up to 1 ms early.
    assert figures.reconnects[0] >= boot - 0.001
    assert figures.reopens[0] < boot  # the kept-powered replug waits for no boot


def test_bench_rfid_shows_a_slowed_host_backoff_in_its_own_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's reopen hid under the tray's boot (review65w R2): a backoff slowed to 1 s
    still gave a reconnect of the boot length and nothing else. The kept-powered replug's
    line shows it: the drop is seen and the tray plugged back at once, and the first reopen
    comes a whole backoff later."""
    from companion.hw.rfid import link

    bench = load_script("bench_rfid")
    slow = 1.0
    monkeypatch.setattr(link.Backoff, "next", lambda self, current: slow)
    figures = bench.bench_tray(1, 1, boot_seconds=1.3, away_seconds=(0.0, 0.0))
    reopen_line, reconnect_line = bench.reconnect_lines(figures, 1.3)
    assert "kept powered" in reopen_line and "1.3 s boot" in reconnect_line
    median = re.search(r"median=([0-9.]+) s", reopen_line)
    assert median is not None
    assert float(median.group(1)) >= slow - 0.1


def test_bench_camera_times_cpu_beside_the_wall_clock() -> None:
    """It timed the wall clock alone: on a shared machine, mostly the queue for a core. A
    call that sleeps takes wall time and next to no CPU."""
    wall, cpu = load_script("bench_camera").median_ms(lambda: time.sleep(0.05), 4)
    assert wall >= 50
    assert cpu < 25


def test_bench_camera_runs_the_model_on_the_batch_the_reader_gives_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"Model only" ran the model on the crop as it lies, once; ``TileClassifier.raw`` runs it
    at every turn in the metadata's ``input.turns`` (0 and 2 for the shipped model)."""
    bench = load_script("bench_camera")
    from companion.hw.camera.classifier import TileClassifier, default_model_path

    classifier = TileClassifier(default_model_path(), threads=1)
    crop = np.random.default_rng(3).integers(0, 256, (120, 90, 3), dtype=np.uint8)
    given: list[np.ndarray] = []
    session = classifier._session
    run = session.run

    class Spy:
        def run(self, names: object, feed: dict[str, np.ndarray]) -> object:
            given.extend(feed.values())
            return run(names, feed)

    monkeypatch.setattr(classifier, "_session", Spy())
    classifier.raw([crop])
    (reader_input,) = given
    batch = bench.turned_batch(classifier, crop)
    assert len(batch) == len(classifier.info.turns)
    np.testing.assert_array_equal(batch, reader_input)


def test_bench_camera_prints_cpu_and_wall_and_names_the_turns(
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.hw.camera.classifier import TileClassifier, default_model_path

    turns = len(TileClassifier(default_model_path(), threads=1).info.turns)
    assert load_script("bench_camera").main(["--repeats", "4"]) == 0
    timed = [line for line in capsys.readouterr().out.splitlines() if "median" in line]
    assert len(timed) == 5
    assert all("ms CPU," in line and "ms wall" in line for line in timed)
    assert f"model only ({turns} turn" in timed[0]


def test_bench_rules_peak_rss_is_the_childs_own_not_the_benchs() -> None:
    """The child read ``ru_maxrss``, which Linux starts at the forking parent's high-water
    mark: here the bench holds 256 MiB more than a game needs, and the figure must stay far
    below it."""
    bench = load_script("bench_rules")
    held = b"\x01" * (256 * MIB)  # written, so resident
    args = argparse.Namespace(games=1, seed=0, preset="ez", strategy="cautious")
    figures = bench.run_engine(args, "pure", True)
    assert len(held) == 256 * MIB
    assert 0 < figures["rss"] < 128


def test_bench_camera_peak_rss_is_its_own_not_the_parents() -> None:
    """Its peak was ``ru_maxrss``, which starts at the forking parent's high-water mark: a
    bench started from a process holding 512 MiB printed at least that (review65w N4)."""
    held = b"\x01" * (512 * MIB)  # written, so resident
    child = subprocess.run(
        [sys.executable, "-c",
         "from tests.scripts import load_script; "
         "print(load_script('bench_camera').rss_mb()[1])"],
        capture_output=True, text=True, check=True, timeout=120,
        cwd=Path(__file__).resolve().parents[1])
    assert len(held) == 512 * MIB
    assert 0 < float(child.stdout) < 384

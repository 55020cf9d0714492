"""The scripts' command lines (audit scripts68): a bad value is a usage error, not a traceback
or a figure of nothing (D1, N5); bench_rules' presets and strategies are the engine's (D2);
``eval_tile_classifier --write-metadata`` writes one run's figures or none (R1); the dice
evals say where the photos are (R2) and refuse a missing ``--config`` (R3); the training
scripts' ``--help`` works without torch (R4); bootstrap.sh and compare_headless.sh say
their usage (N1, N2); the helpers say they are not scripts (N3); no pygame banner (N6);
options say what they take (N7); PROTOCOL.md's session shows the firmware's version (N8)."""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hw.camera.classifier import default_model_path
from companion.systems.jongrogue.autoplay import STRATEGIES
from tests.scripts import SCRIPTS, load_script

ROOT = SCRIPTS.parent
PYTHON = sys.executable


@pytest.fixture(autouse=True)
def _sigterm_kept() -> Iterator[None]:
    """bench_play's and bench_startup's parsers take SIGTERM for the bench: given back."""
    handler = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, handler)


def _refused(script: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``script``'s main(argv) ends as a usage error (exit 2); what it said."""
    with pytest.raises(SystemExit) as exit_:
        load_script(script).main(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("script", "argv", "said"), [
    # D1: each ended in ZeroDivisionError, StatisticsError, ValueError or IndexError
    ("bench_rules", ["--games", "0"], "argument --games: 0 is not a whole number of 1 or more"),
    ("bench_rules", ["--seed", "-1"], "argument --seed: -1 is negative"),
    ("bench_display", ["--frames", "0"], "argument --frames: 0 is not a whole number of 1"),
    ("bench_display", ["--frames", "-3"], "argument --frames: -3 is not a whole number of 1"),
    ("bench_play", ["--steps", "0", "--runs", "1", "--resume-inputs", "10"],
     "argument --steps: 0 is not a whole number of 1 or more"),
    ("bench_play", ["--runs", "0"], "argument --runs: 0 is not a whole number of 1 or more"),
    ("bench_play", ["--stop-after", "-1"], "argument --stop-after: -1 is not a number of 0"),
    ("bench_play", ["--resume-inputs", "-1"], "argument --resume-inputs: -1 is not a whole"),
    ("bench_rfid", ["--events", "0"], "argument --events: 0 is not a whole number of 1"),
    ("bench_rfid", ["--events", "5", "--replugs", "0"], "argument --replugs: 0 is not a whole"),
    ("bench_rfid", ["--events", "5", "--replugs", "-1"], "argument --replugs: -1 is not a"),
    ("bench_rfid", ["--boot-seconds", "-1"], "argument --boot-seconds: -1 is not a number"),
    ("bench_startup", ["--runs", "0"], "argument --runs: 0 is not a whole number of 1 or more"),
    ("bench_startup", ["--history-games", "-2", "--runs", "1"],
     "argument --history-games: -2 is not a whole number of 0 or more"),
    ("bench_dice", ["--scenes", "0", "--mat-scenes", "0", "--painted-scenes", "0",
                    "--special", "0"],
     "--scenes, --mat-scenes, --painted-scenes and --special are all 0: give one scene"),
    ("bench_dice", ["--scenes", "-1"], "argument --scenes: -1 is not a whole number of 0"),
    # N5: accepted and printed as figures, or a traceback
    ("bench_dice", ["--max-tilt", "-5"], "argument --max-tilt: -5 is not a number from 0 to"),
    ("bench_dice", ["--max-tilt", "nan"], "argument --max-tilt: nan is not a number from 0"),
    ("bench_camera_idle", ["--seconds", "0"], "argument --seconds: 0 is not a number over 0"),
    ("bench_camera_idle", ["--seconds", "-1"], "argument --seconds: -1 is not a number over"),
    ("bench_camera", ["--model", "/nonexistent.onnx"],
     "argument --model: /nonexistent.onnx: no such file"),
    ("eval_tile_classifier", ["--model", "/nonexistent.onnx"],
     "argument --model: /nonexistent.onnx: no such file"),
    ("eval_tile_classifier", ["--scenes", "0"], "argument --scenes: 0 is not a whole number"),
    ("eval_tile_classifier", ["--renders-per-class", "0"], "--renders-per-class: 0 is not"),
    ("render_tiles", ["--out", "{tmp}/x", "--per-class", "-1"],
     "argument --per-class: -1 is not a whole number of 1 or more"),
    ("render_dice", ["{tmp}/x", "--count", "-1"],
     "argument --count: -1 is not a whole number of 1 or more"),
    ("make_dice_data", ["--out", "{tmp}/x", "--scenes", "0"],
     "argument --scenes: 0 is not a whole number of 1 or more"),
    ("make_dice_data", ["--out", "{tmp}/x", "--max-tilt", "95"],
     "argument --max-tilt: 95 is not a number from 0 to below 90"),
    ("scan_label_cuts", ["--size", "foo"], "argument --size: invalid choice: 'foo'"),
    ("scan_label_cuts", ["--scale", "9"], "--scale 9: give 1 to 1.25"),
    ("scan_label_cuts", ["--seeds", "0"], "argument --seeds: 0 is not a whole number of 1"),
    ("scan_label_cuts", ["--shot", "1", "bogus", "3", "x.png"],
     "--shot: strategy 'bogus': choose one of cautious, reckless"),
    ("make_mat", ["--out", "{tmp}/m", "--dpi", "0"],
     "argument --dpi: 0 is not a whole number of 1 or more"),
    # R3: ReaderConfig.load read the packaged thresholds instead, and said nothing
    ("bench_dice", ["--config", "/nonexistent.toml", "--scenes", "1"],
     "argument --config: /nonexistent.toml: no such file"),
    ("eval_dice_reader", ["--config", "/nonexistent.toml"],
     "argument --config: /nonexistent.toml: no such file"),
    ("eval_dice_reader", ["--enrol", "0"], "argument --enrol: 0 is not a whole number of 1"),
])
def test_a_value_the_script_cannot_use_is_a_usage_error(
        script: str, argv: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    assert said in _refused(script, argv, capsys)
    assert list(tmp_path.iterdir()) == []  # nothing written


_NOT_A_FOLDER = "a file, not a folder; give a folder to write into"


@pytest.mark.parametrize(("script", "argv", "said"), [
    ("render_dice", ["{file}", "--count", "1"], f"argument out: {{file}}: {_NOT_A_FOLDER}"),
    ("make_dice_data", ["--scenes", "1", "--out", "{file}"],
     f"argument --out: {{file}}: {_NOT_A_FOLDER}"),
    ("make_dice_data", ["--scenes", "1", "--out", "{file}/sub"],
     f"argument --out: {{file}}/sub: {{file}} is {_NOT_A_FOLDER}"),
    ("make_tray", ["--out", "{tmp}/nodir/tray.stl"],
     "argument --out: {tmp}/nodir/tray.stl: no folder {tmp}/nodir; make it first, or give "
     "another"),
    ("make_tray", ["--out", "{tmp}"], "argument --out: {tmp}: a folder, not a file; give a "
                                      "file name"),
    ("make_tray", ["--out", "{file}/tray.stl"],
     "argument --out: {file}/tray.stl: {file} is a file, not a folder"),
    ("bench_display", ["--frames", "1", "--game-steps", "1", "--screenshots", "{file}"],
     f"argument --screenshots: {{file}}: {_NOT_A_FOLDER}"),
    ("scan_label_cuts", ["--shot", "0", "cautious", "5", "{tmp}/nodir/x.png"],
     "--shot: {tmp}/nodir/x.png: no folder {tmp}/nodir; make it first, or give another"),
    ("scan_label_cuts", ["--shot", "0", "cautious", "5", "{tmp}"],
     "--shot: {tmp}: a folder, not a file; give a file name"),
])
def test_an_output_path_the_script_cannot_write_is_a_usage_error_before_any_work(
        script: str, argv: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """a76maker DEFECT 1: each ended in a FileExistsError, FileNotFoundError or
    IsADirectoryError traceback (scan_label_cuts in pygame's error), bench_display's and
    scan_label_cuts' after the bench or the game played up to the shot. Now a usage error
    naming the path and what is wrong, as render_tiles' (camera75 NIT 7), before the work:
    nothing printed, nothing written."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    def placed(text: str) -> str:
        return text.replace("{file}", str(afile)).replace("{tmp}", str(tmp_path))
    with pytest.raises(SystemExit) as stop:
        load_script(script).main([placed(arg) for arg in argv])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert err.splitlines()[-1].endswith(f": error: {placed(said)}")
    assert out == ""  # stopped before the work, which prints as it goes
    assert list(tmp_path.iterdir()) == [afile] and afile.read_text() == "x"


def test_bench_rules_takes_the_engines_presets_and_strategies(
        capsys: pytest.CaptureFixture[str]) -> None:
    """D2: `--preset foo` printed the table's head, then a CalledProcessError: the child's
    reason (unknown preset) was thrown away. The presets are the engine's own (ez, plus and
    ez+OPTION…, as `companion simulate` takes them, rules70), the strategies its list."""
    err = _refused("bench_rules", ["--preset", "foo", "--games", "1"], capsys)
    assert ("argument --preset: unknown preset 'foo': choose one of ez, plus, or ez with "
            "options switched on") in err
    err = _refused("bench_rules", ["--strategy", "foo", "--games", "1"], capsys)
    choices = ", ".join(repr(name) for name in sorted(STRATEGIES))
    assert f"argument --strategy: invalid choice: 'foo' (choose from {choices})" in err


def test_bench_rules_says_why_an_engines_run_failed(capsys: pytest.CaptureFixture[str]) -> None:
    """D2: a child that failed is shown with its own words (its stderr was thrown away).
    Its command line is refused here, as only a child's can be once the bench's is read."""
    bench = load_script("bench_rules")
    args = argparse.Namespace(games=0, seed=0, preset="ez", strategy="cautious")
    with pytest.raises(SystemExit) as exit_:
        bench.run_engine(args, "pure", False)
    assert exit_.value.code == ("bench_rules.py: the pure engine's run failed (exit 2); its "
                                "output is above")
    assert "argument --games: 0 is not a whole number of 1 or more" in capsys.readouterr().err


def test_write_metadata_needs_every_photo_source(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R1: without the photos (a clone not beside ../shared) --write-metadata replaced the
    whole 'measured' block: 43 figures became 10, every held-out photo one gone. Keeping
    the old ones instead would mix two runs (a model retrained in place): it is refused
    before anything is read, and the file is left as it was. Run on a copy of the model."""
    model = tmp_path / "tile_classifier.onnx"
    shutil.copy(default_model_path(), model)
    shutil.copy(default_model_path().with_suffix(".json"), model.with_suffix(".json"))
    before = model.with_suffix(".json").read_bytes()
    script = load_script("eval_tile_classifier")
    monkeypatch.setattr(script, "SOURCES", (tmp_path / "no-photos",))
    with pytest.raises(SystemExit) as exit_:
        script.main(["--model", str(model), "--write-metadata"])
    assert exit_.value.code == 2
    assert (f"--write-metadata needs every photo source: {tmp_path / 'no-photos' / 'labels.csv'}"
            " not found") in capsys.readouterr().err
    assert model.with_suffix(".json").read_bytes() == before


@pytest.mark.parametrize("smaller, said", [
    (["--renders-per-class", "3"], "--renders-per-class"),
    (["--scenes", "1"], "--scenes"),
    (["--sources", "mahjong-photos"], "--sources"),
    (["--scenes", "1", "--renders-per-class", "1"], "--renders-per-class, --scenes")])
def test_write_metadata_stores_only_a_run_at_the_default_sizes(
        smaller: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """R1 (reviewx68): a smaller run (3 renders of a kind, one scene, one photo source)
    wrote its figures under the default run's keys: 200 mat scene slots became 5. It is
    refused before anything is read, and the file is left as it was."""
    model = tmp_path / "tile_classifier.onnx"
    shutil.copy(default_model_path(), model)
    shutil.copy(default_model_path().with_suffix(".json"), model.with_suffix(".json"))
    before = model.with_suffix(".json").read_bytes()
    with pytest.raises(SystemExit) as exit_:
        load_script("eval_tile_classifier").main(["--model", str(model), *smaller,
                                                  "--write-metadata"])
    assert exit_.value.code == 2
    assert (f"--write-metadata stores the figures of the default run: leave out {said}"
            in capsys.readouterr().err)
    assert model.with_suffix(".json").read_bytes() == before


@pytest.mark.parametrize("script", ["eval_dice_reader", "make_dice_real_data"])
def test_the_dice_evals_say_where_the_photos_are(
        script: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R2: without ../shared/datasets/dice-photos they ended in FileNotFoundError."""
    argv = ["--photos", str(tmp_path / "none")]
    if script == "make_dice_real_data":
        argv += ["--out", str(tmp_path / "out")]
    err = _refused(script, argv, capsys)
    assert (f"{tmp_path / 'none' / 'labels.csv'} not found: the dice photos are not in the "
            "repository; give --photos DIR") in err
    assert not (tmp_path / "out").exists()


def _without_torch(script: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``scripts/<script>.py argv`` run where ``import torch`` fails, installed or not."""
    path = str(SCRIPTS / f"{script}.py")
    code = ("import runpy, sys; sys.modules['torch'] = None; "
            f"sys.argv = [{path!r}, *{list(argv)!r}]; runpy.run_path({path!r}, "
            "run_name='__main__')")
    return subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "100"}, timeout=120, check=False)


@pytest.mark.parametrize(("script", "option", "runs"), [
    ("train_tile_classifier", "--epochs", ["--out", "o"]),
    ("train_dice_reader", "--finder-steps", ["--out", "o"]),
    ("train_dice_counter", "--check-every", ["--data", "d", "--real", "r", "--out", "o"]),
    ("join_tile_models", "--out", ["a.onnx", "b.onnx", "--out", "j"]),
])
def test_the_training_scripts_help_needs_no_torch(script: str, option: str,
                                                   runs: list[str]) -> None:
    """R4: --help ended in ModuleNotFoundError: torch; the install line in the docstrings
    named /work/venv, which does not exist."""
    shown = _without_torch(script, "--help")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage: ") and option in shown.stdout
    bad = _without_torch(script, *runs, "--bogus")
    assert bad.returncode == 2 and "unrecognized arguments: --bogus" in bad.stderr
    ran = _without_torch(script, *runs)
    assert ran.returncode == 1
    assert ran.stderr == (f"{script}.py: needs torch, the `train` extra: "
                          ".venv/bin/pip install -e '.[train]'\n")
    assert "/work/venv" not in (SCRIPTS / f"{script}.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(("script", "runs", "shipped"), [
    ("train_tile_classifier", [], "models/tile_classifier"),
    ("train_dice_reader", [], "models"),
    ("train_dice_counter", ["--data", "d", "--real", "r"], "models"),
])
def test_the_training_scripts_write_only_where_told(script: str, runs: list[str],
                                                   shipped: str) -> None:
    """scripts73 R5: --out defaulted to models/, so a trial run ("--steps 1", to see that it
    runs) replaced the shipped models. It is required, and its help says how to write the
    shipped ones on purpose. (Run without torch: the command line is read first.)"""
    refused = _without_torch(script, *runs)
    assert refused.returncode == 2
    assert "the following arguments are required: --out" in refused.stderr
    shown = _without_torch(script, "--help")
    it = "it" if "/" in shipped else "them"
    assert (f"so a trial run never replaces {it}; give --out {shipped} to replace {it} on "
            "purpose)") in " ".join(shown.stdout.split())


def test_bootstrap_help_says_what_it_does_and_sets_nothing_up(tmp_path: Path) -> None:
    """N1: `bash scripts/bootstrap.sh --help` ran the whole setup (138 s). It runs on a
    copy here, with a python3 that fails, so that the old script stopped at once."""
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "bootstrap.sh"
    shutil.copy(SCRIPTS / "bootstrap.sh", script)
    stand_in = tmp_path / "bin" / "python3"
    stand_in.parent.mkdir()
    stand_in.write_text("#!/bin/sh\nexit 3\n")
    stand_in.chmod(0o755)
    env = {**os.environ, "PATH": f"{stand_in.parent}:/usr/bin:/bin"}

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", str(script), *argv], capture_output=True, text=True,
                              env=env, timeout=60, check=False)

    shown = run("--help")
    assert shown.returncode == 0 and shown.stderr == ""
    assert shown.stdout.startswith("Set up .venv with the companion and its test tools")
    bad = run("--bogus")
    assert bad.returncode == 2  # a usage error, as install-pi.sh's (reviewx68 NIT 3)
    assert bad.stderr == ("bootstrap.sh: unknown option --bogus: it takes none (--help says "
                          "what it does)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "scripts"]


def test_compare_headless_says_its_usage() -> None:
    """N2: no arguments said "$1: unbound variable"; --help printed git worktree's usage."""
    script = str(SCRIPTS / "compare_headless.sh")
    none = subprocess.run(["bash", script], capture_output=True, text=True, timeout=60,
                          check=False)
    assert none.returncode == 2
    assert none.stderr.startswith("usage: bash scripts/compare_headless.sh REVISION_A REVISION_B\n")
    shown = subprocess.run(["bash", script, "--help"], capture_output=True, text=True,
                           timeout=60, check=False)
    assert shown.returncode == 0 and shown.stdout == none.stderr


@pytest.mark.parametrize(("helper", "said"), [
    ("bench_stats", "bench_stats.py is not a bench: the benches import it"),
    ("torch_extra", "torch_extra.py is not a script: the training scripts import it"),
])
def test_the_helpers_beside_the_scripts_say_they_are_not_scripts(helper: str, said: str) -> None:
    """N3: `bench_stats.py --help`, which looks like a bench, printed nothing and exit 0."""
    done = subprocess.run([PYTHON, str(SCRIPTS / f"{helper}.py"), "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and said in done.stderr


def test_scan_label_cuts_help_has_no_pygame_banner() -> None:
    """N6: it imported pygame before companion, which hides the banner."""
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    done = subprocess.run([PYTHON, str(SCRIPTS / "scan_label_cuts.py"), "--help"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.startswith("usage: scan_label_cuts.py")


def _described(help_text: str, option: str) -> bool:
    """Whether ``option``'s entry in an argparse ``--help`` has words after its name: looked
    for under the options heading, not in the description's example lines, which name
    options too (``--model /tmp/…/tile_classifier.onnx``, shown since 4570ca5d)."""
    lines = help_text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.endswith("options:")), 0)
    for i, line in enumerate(lines[start:], start):
        parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        if re.fullmatch(rf"{re.escape(option)}( \S+)*", parts[0]):
            if len(parts) == 2:
                return True
            following = lines[i + 1] if i + 1 < len(lines) else ""
            return following.startswith(" " * 8) and not following.strip().startswith("-")
    raise AssertionError(f"{option} is not in the help")


@pytest.mark.parametrize(("script", "options"), [
    ("bench_rules", ["--games", "--seed", "--preset", "--strategy"]),
    ("bench_display", ["--frames"]),
    ("bench_rfid", ["--events"]),
    ("bench_camera", ["--model"]),
    ("render_tiles", ["--out", "--per-class", "--seed"]),
    ("scan_label_cuts", ["--size", "--seeds", "--scale"]),
    ("eval_tile_classifier", ["--model", "--renders-per-class", "--scenes", "--write-metadata"]),
    ("make_mat", ["--dpi"]),
])
def test_these_options_say_what_they_take(script: str, options: list[str],
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """N7: these options had no help text."""
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as exit_:
        load_script(script).main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert [o for o in options if not _described(out, o)] == []


def _entry(help_text: str, option: str) -> str:
    """``option``'s whole entry in an argparse ``--help``: its line and those below it."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if re.match(rf"\s+{re.escape(option)}(\s|,|$)", line))
    end = next((i for i in range(start + 1, len(lines))
                if not lines[i].startswith(" " * 8) or lines[i].strip().startswith("-")),
               len(lines))
    return " ".join(" ".join(lines[start:end]).split())


#: The scripts whose --help was their docstring's first line, and their options that had no
#: help, or a default it did not state (scripts73 NIT 8).
HELPED = [
    ("bench_dice", ["--scenes", "--mat-scenes", "--painted-scenes", "--special", "--max-tilt",
                    "--repeats"]),
    ("build_compiled", []),
    ("eval_dice_calibration", []),
    ("eval_dice_reader", ["--part"]),
    ("eval_tile_classifier", ["--fold", "--sources"]),
    ("join_tile_models", []),
    ("make_dice_data", ["--paints", "--max-tilt", "--scenes"]),
    ("make_dice_real_data", ["--seed"]),
    ("make_mat", ["--out"]),
    ("make_tray", ["--out"]),
    ("render_dice", ["--seed", "--kind", "--table"]),
    ("render_tiles", []),
    ("scan_label_cuts", ["--min-options"]),
    ("train_dice_counter", ["--steps", "--lr", "--check-every", "--seed", "--threads"]),
    ("train_dice_reader", ["--finder-steps", "--judge-steps", "--only", "--seed", "--threads",
                           "--lr"]),
    ("train_tile_classifier", ["--sources", "--seed", "--synthetic-per-class", "--epochs",
                               "--real-repeats", "--lr", "--threads", "--widths"]),
]


@pytest.mark.parametrize(("script", "defaults"), HELPED)
def test_the_scripts_help_shows_the_whole_docstring_and_the_defaults(
        script: str, defaults: list[str]) -> None:
    """scripts73 NIT 8: --help showed the docstring's first line only (eval_dice_calibration's
    cut mid-sentence), and these options said no default, or nothing. Run without torch, as
    the training scripts' --help must be."""
    shown = _without_torch(script, "--help")
    assert shown.returncode == 0, shown.stderr
    doc = ast.get_docstring(ast.parse((SCRIPTS / f"{script}.py").read_text(encoding="utf-8")))
    assert doc is not None
    assert " ".join(doc.split()) in " ".join(shown.stdout.split())
    listed = shown.stdout[shown.stdout.index("\noptions:\n"):]  # not the docstring's lines
    assert [o for o in defaults if "default" not in _entry(listed, o)] == []
    options = re.findall(r"^  (--[\w-]+)", listed, re.MULTILINE)
    assert [o for o in options if o != "--help" and not _described(listed, o)] == []


def test_make_mat_writes_the_checkouts_docs_wherever_it_is_run_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts73 NIT 9: its default --out was docs/mat in the working directory: run from
    elsewhere it made a docs/ there. The writes are caught here, so docs/ is left alone."""
    script = load_script("make_mat")
    written: list[Path] = []
    monkeypatch.setattr(script.cv2, "imwrite", lambda path, image: written.append(Path(path))
                        or True)
    monkeypatch.setattr(script, "write_pdf", lambda path, *rest: written.append(path))
    monkeypatch.chdir(tmp_path)
    assert script.main(["--dpi", "10"]) == 0
    assert written == [ROOT / "docs" / "mat.png", ROOT / "docs" / "mat.pdf"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("scenes", "side_on", "said"), [
    (4, False, "rendering 1 shard of 100 scenes: 100 scenes (--scenes 4 rounded up to whole "
               "shards)"),
    (3000, False, "rendering 30 shards of 100 scenes: 3000 scenes"),
    (150, True, "rendering 2 shards of about 100 scenes: about 200 scenes (--scenes 150 "
                "rounded up to whole shards)"),
])
def test_make_dice_data_says_it_renders_whole_shards(scenes: int, side_on: bool,
                                                     said: str) -> None:
    """scripts73 NIT 10: --scenes 4 rendered 100 scenes (108 s) and said nothing of it."""
    assert load_script("make_dice_data").shards_said(scenes, side_on) == said


def test_protocol_md_session_shows_the_firmwares_own_version() -> None:
    """N8: the example session's tray said HELLO 1.1.0; the firmware is newer."""
    main = (ROOT / "firmware" / "main.py").read_text(encoding="utf-8")
    version = re.search(r'^FIRMWARE_VERSION = "([^"]+)"$', main, re.MULTILINE)
    assert version is not None
    protocol = (ROOT / "firmware" / "PROTOCOL.md").read_text(encoding="utf-8")
    hellos = re.findall(r"^tray: J1 \d+ HELLO (\S+) \d+ \*[0-9A-F]{4}$", protocol, re.MULTILINE)
    assert hellos == [version.group(1)]

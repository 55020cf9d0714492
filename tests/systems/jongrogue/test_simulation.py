"""Simulation mode and the compiled build give the reference mode's games (issue 22).

The reference is the engine as the play session drives it: a push per input, events,
prompts and input checks. Simulation mode must play the very same games, and the
compiled build (when it is built) the same as pure Python.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import IllegalAction
from companion.systems import jongrogue
from companion.systems.jongrogue.actions import Choice
from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS
from companion.systems.jongrogue.wall import _shuffle
from tests.systems.jongrogue.script import feed

ROOT = Path(__file__).resolve().parents[3]
SEEDS_PER_KIND = 75  # x 2 presets x 2 strategies = 300 games
KINDS = [(p, s) for p in ("ez", "plus") for s in ("cautious", "reckless")]


def digests(simulation: bool, seeds: int = SEEDS_PER_KIND) -> list[str]:
    """One line per game: its kind, seed, outcome and a hash of its whole journal."""
    out = []
    for preset, strategy in KINDS:
        for seed in range(seeds):
            game = play(seed, preset, strategy, simulation=simulation)
            outcome = game.outcome()
            assert outcome is not None
            journal = " ".join(str(i) for i in game.inputs).encode()
            out.append(f"{preset} {strategy} {seed} {outcome.termination.value} "
                       f"{outcome.floor} {outcome.cause} {len(game.inputs)} "
                       f"{hashlib.sha1(journal).hexdigest()}")
    return out


def behaviour() -> dict[str, object]:
    """What pop() and a wrong input do, as plain data to compare across builds."""
    game = Game("ez")
    feed(game, "5m 1m 1z 2z 3z")
    before = [str(i) for i in game.inputs]
    errors = []
    for wrong in ("5m", 3, None, Choice.from_notation("stairs")):
        try:
            game.push(wrong)  # type: ignore[arg-type]
        except IllegalAction as exc:
            errors.append(type(exc).__name__)
    feed(game, "fight:1 2m")
    undone = str(game.pop())
    return {
        "errors": errors, "undone": undone, "after_pop": [str(i) for i in game.inputs],
        "unchanged": before, "pending": str(game.pending),
        "events": [e.to_json() for e in game.events],
    }


def test_simulation_mode_plays_the_reference_games() -> None:
    """300 seeds over both presets and both strategies: the same journals and outcomes."""
    assert digests(simulation=True) == digests(simulation=False)


def test_a_wrong_input_is_an_illegal_action_and_pop_undoes() -> None:
    result = behaviour()
    assert result["errors"] == ["IllegalAction"] * 4
    assert result["undone"] == "2m" and result["after_pop"] == [*result["unchanged"], "fight:1"]


def test_the_compiled_build_plays_the_pure_games() -> None:
    """The compiled build, in a child process: the same simulation games as pure Python,
    and the same pop() and IllegalAction.

    CI's bootstrap builds it (CI's machine has mypyc and a C compiler), so there a missing
    build fails this test rather than skipping it unseen; elsewhere, where a machine may
    have no compiler, it is skipped, naming the build it looked for."""
    if not jongrogue.compiled_dir().is_dir():
        missing = (f"no compiled build at {jongrogue.compiled_dir()} for these sources "
                   "(.venv/bin/python scripts/build_compiled.py makes it, or says why not)")
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing}; CI's scripts/bootstrap.sh should have made it")
        pytest.skip(missing)
    code = (
        "import json, sys\n"
        "from companion.systems import jongrogue\n"
        "from companion.systems.jongrogue import game\n"
        "from tests.systems.jongrogue import test_simulation as t\n"
        "print(json.dumps({'build': jongrogue.BUILD, 'file': game.__file__,\n"
        "                  'digests': t.digests(simulation=True),\n"
        "                  'behaviour': t.behaviour()}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_VERSION"}
    env["COMPANION_RULES_BUILD"] = "compiled"
    child = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)
    compiled = json.loads(child.stdout)
    assert compiled["build"] == "compiled" and not compiled["file"].endswith(".py")
    assert jongrogue.BUILD == "pure"
    assert compiled["digests"] == digests(simulation=True)
    assert compiled["behaviour"] == json.loads(json.dumps(behaviour()))


@pytest.mark.parametrize("edited", ["systems/jongrogue/game.py", "errors.py",
                                    "dice/randomizer.py"])
def test_an_edited_module_names_another_build(tmp_path: Path, edited: str) -> None:
    """A build is found by the hash of the sources, so an edited .py never runs against
    the build of its old text (it runs as pure Python until built again); so are the
    companion's modules the compiled ones import, which mypyc compiled against."""
    package = Path(jongrogue.__file__).parent
    companion = package.parents[1]
    copy = tmp_path / "companion" / "systems" / "jongrogue"
    copy.mkdir(parents=True)
    for name in jongrogue.COMPILED_MODULES:
        (copy / f"{name}.py").write_bytes((package / f"{name}.py").read_bytes())
    for name in jongrogue.IMPORTED_SOURCES:
        (copy.parents[1] / name).parent.mkdir(parents=True, exist_ok=True)
        (copy.parents[1] / name).write_bytes((companion / name).read_bytes())
    assert jongrogue.source_hash(copy) == jongrogue.source_hash()
    with (copy.parents[1] / edited).open("a", encoding="utf-8") as f:
        f.write("\n# edited\n")
    assert jongrogue.source_hash(copy) != jongrogue.source_hash()
    assert jongrogue.compiled_dir().name == jongrogue.source_hash()


def test_the_walls_shuffle_is_random_shuffle() -> None:
    """The simulated wall shuffles in-line, but into the very order random.shuffle gives
    (and leaves the generator in the same state), so seeds keep their games."""
    for seed in range(300):
        for n in (0, 1, 2, 3, 35, 64, 136, 200):
            tiles = [ALL_KINDS[i % len(ALL_KINDS)] for i in range(n)]
            ours, theirs = list(tiles), list(tiles)
            rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
            _shuffle(rng_ours, ours)
            rng_theirs.shuffle(theirs)
            assert ours == theirs and rng_ours.random() == rng_theirs.random(), (seed, n)

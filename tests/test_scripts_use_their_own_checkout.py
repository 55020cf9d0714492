"""Every script imports the ``companion`` of the checkout it sits in (audit scripts73 R1).

The venv holds an editable install of one checkout (/work/main), and a script's own folder
is all ``python scripts/x.py`` puts on ``sys.path``: a script run from a worktree measured
/work/main's tree (others' uncommitted edits, and its compiled rules core build, which lives
in the package's own folder) and printed it as the worktree's figures."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.scripts import SCRIPTS

# Each script in turn, run as `python scripts/x.py --help` runs it (its folder first on
# sys.path), with companion forgotten between them: which companion each imported.
_WHICH = """
import json, runpy, sys
scripts, names = sys.argv[1], sys.argv[2:]
start = [scripts, *sys.path[1:]]
found = {}
for name in names:
    for module in [m for m in sys.modules if m == "companion" or m.startswith("companion.")]:
        del sys.modules[module]
    sys.path[:] = start
    sys.argv = [f"{scripts}/{name}.py", "--help"]
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit:
        pass
    jongrogue = sys.modules.get("companion.systems.jongrogue")
    found[name] = [sys.modules["companion"].__file__, jongrogue and jongrogue.__file__]
print(json.dumps(found))
"""


def _importing_companion() -> list[str]:
    """The scripts whose source imports companion at its top (every one but the helpers)."""
    return sorted(path.stem for path in SCRIPTS.glob("*.py")
                  if re.search(r"^from (companion|eval_dice_reader)\b", path.read_text(
                      encoding="utf-8"), re.MULTILINE))


def test_each_script_imports_the_companion_of_its_own_checkout(tmp_path: Path) -> None:
    """A second checkout (its scripts copied, its companion a link to this one's) beside the
    venv's editable install: each script's companion, and the rules core whose folder holds
    the compiled build, are that checkout's. Before, every one was the editable install's."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    for path in SCRIPTS.glob("*.py"):
        (checkout / "scripts" / path.name).write_bytes(path.read_bytes())
    (checkout / "companion").symlink_to(SCRIPTS.parent / "companion")
    names = _importing_companion()
    assert len(names) >= 20 and "bench_rules" in names and "eval_tile_classifier" in names
    done = subprocess.run([sys.executable, "-c", _WHICH, str(checkout / "scripts"), *names],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    own = str(checkout / "companion")
    assert {name: files for name, files in found.items()
            if not (files[0].startswith(own) and (files[1] is None or files[1].startswith(own)))
            } == {}
    assert found["bench_rules"][1] == f"{own}/systems/jongrogue/__init__.py"

"""System `jongrogue`: the rules core of 雀ローグEZプラス JongRogue EZ Plus (spec ``jongrogue.md``).

:class:`~companion.systems.jongrogue.game.Game` takes tiles and choices with
``push``/``pop`` and tells what it asks for next; the tables and the [DEFAULT]
numbers are the TOML files under ``data/``.

The rules core may also run compiled (mypyc, ``scripts/build_compiled.py``), several
times faster. A build lives in ``_compiled/<hash of the sources>/`` and is used only
while the sources hash the same, so an edited module is never run from a stale build:
it runs as pure Python until the build is made again. ``COMPANION_RULES_BUILD=pure``
in the environment keeps the pure Python modules even when a build is there, and so
does pytest unless ``COMPANION_RULES_BUILD=compiled``; :data:`BUILD` says which runs.
"""

from __future__ import annotations

import hashlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# The modules a compiled build holds: every module of the package but this one.
COMPILED_MODULES = (
    "actions", "autoplay", "checks", "combat", "core", "datafiles", "decisions", "drawing",
    "encounter", "events", "game", "items", "moving", "narration", "profile", "ranged",
    "reference", "rooms", "state", "tables", "tiles", "wall",
)
# The modules outside the package that the compiled ones import (under companion/): mypyc
# compiled against what they declare, so an edit there needs another build too.
IMPORTED_SOURCES = ("errors.py", "dice/randomizer.py")
_HERE = Path(__file__).resolve().parent


def source_hash(package: Path = _HERE) -> str:
    """The hash of the compiled modules' sources, and of the companion's modules they
    import (``package`` is companion/systems/jongrogue of a checkout), that names their
    build."""
    digest = hashlib.sha256()
    for name in COMPILED_MODULES:
        digest.update(name.encode() + b"\0" + (package / f"{name}.py").read_bytes())
    for name in IMPORTED_SOURCES:
        digest.update(name.encode() + b"\0" + (package.parents[1] / name).read_bytes())
    return digest.hexdigest()[:20]


def compiled_dir() -> Path:
    """Where the build of the sources as they are now belongs."""
    return _HERE / "_compiled" / source_hash()


def _use_compiled() -> bool:
    wanted = os.environ.get("COMPANION_RULES_BUILD", "")
    if wanted == "pure":
        return False
    if not wanted and "PYTEST_VERSION" in os.environ:
        # pytest collects the doctests of the .py files and refuses a module imported
        # from elsewhere; the tests run the compiled build in a child process.
        return False
    return all((compiled_dir() / f"{name}{EXTENSION_SUFFIXES[0]}").is_file()
               for name in COMPILED_MODULES)


# The build's modules come first on the package's path, so its submodules are the
# compiled ones; without a build they are the .py files beside this one.
BUILD = "compiled" if _use_compiled() else "pure"
if BUILD == "compiled":
    __path__.insert(0, str(compiled_dir()))

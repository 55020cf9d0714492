"""Imports point inward: app → hw → systems → dice (docs/architecture.md).

Every import of every module under ``companion/`` is read from its source, the
ones inside functions and ``TYPE_CHECKING`` blocks too, and held to its layer's
rule. A reverse import fails here, naming the module and the line.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

#: The module of the systems layer that every system may import: the Defaults keyed by rule
#: ID, shared by the systems (it imports no system itself).
SHARED_SYSTEMS = "companion.systems.defaults"

#: What each layer may import of the companion, besides itself; "stdlib" marks a layer
#: that may import nothing from outside the standard library.
LAYERS: dict[str, tuple[tuple[str, ...], bool]] = {
    "companion.errors": ((), True),
    "companion.dice": (("companion.errors",), True),
    "companion.systems": (("companion.dice", "companion.errors", SHARED_SYSTEMS), True),
    "companion.file_locks": (("companion.errors",), False),
    "companion.files": (("companion.errors", "companion.file_locks"), False),
    "companion.toml_writing": (("companion.errors", "companion.files"), False),
    "companion.assets": (("companion.systems",), False),
    "companion.hw": (("companion.systems", "companion.dice", "companion.errors",
                      "companion.files", "companion.file_locks", "companion.toml_writing",
                      "companion.assets"), False),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, module) of every import in the tree, relative ones made absolute as Python
    makes them: from a package's ``__init__`` a single dot is the package itself."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                name = importlib.util.resolve_name("." * node.level + name, package)
            if not node.module or name == "companion":
                # `from .. import app`, `from companion import app`: each name may be a
                # module, and the package alone is no layer.
                found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, name))
    return found


def layer_of(module: str) -> str | None:
    return next((layer for layer in sorted(LAYERS, key=len, reverse=True)
                 if module == layer or module.startswith(layer + ".")), None)


def own_home(module: str) -> str:
    """What a module may always import: its own package (a system: its own system)."""
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["companion", "systems"] else layer_of(module) \
        or module


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """Why each import of ``module`` (a package's ``__init__`` when ``is_package``) breaks
    its layer's rule (none for the app)."""
    layer = layer_of(module)
    if layer is None:
        return []
    allowed, stdlib_only = LAYERS[layer]
    home = own_home(module)
    wrong: list[str] = []
    for line, name in imported(ast.parse(source), module, is_package):
        top = name.split(".")[0]
        if top == "companion":
            inside = name == home or name.startswith(home + ".")
            if not inside and not any(name == a or name.startswith(a + ".") for a in allowed):
                wrong.append(f"{module}:{line} imports {name}")
        elif stdlib_only and top != "__future__" and top not in sys.stdlib_module_names:
            wrong.append(f"{module}:{line} imports {name}, not the standard library")
    return wrong


def test_every_module_imports_inward_only() -> None:
    wrong: list[str] = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50
    for path in modules:
        wrong += violations(module_name(path), path.read_text(encoding="utf-8"),
                            path.name == "__init__.py")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("module", "source"), [
    ("companion.hw.display.screen", "from companion.app.session.host import Session\n"),
    ("companion.hw.camera.reader",
     "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion.app import paths\n"),
    ("companion.systems.jongrogue.game", "import pygame\n"),
    ("companion.systems.events.run", "from companion.systems.jongrogue.tiles import Tile\n"),
    ("companion.systems.jongrogue.wall", "from companion.hw.ports import Slot\n"),
    ("companion.dice.roll", "from companion.systems.events.rules import EventRules\n"),
    ("companion.dice.notation", "from ..app import cli\n"),
    # the shared Defaults module is of the systems layer: it may not reach into a system
    ("companion.systems.defaults", "from companion.systems.coc.rules import CocRules\n"),
    ("companion.systems.defaults", "from companion.hw.display.view import View\n"),
    ("companion.dice.roll", "from companion.systems.defaults import Settings\n"),
])
def test_a_reverse_import_is_caught(module: str, source: str) -> None:
    assert violations(module, source)


@pytest.mark.parametrize(("package", "source", "target"), [
    ("companion.hw", "from ..app import paths\n", "companion.app"),
    ("companion.hw.display", "from ...app.session.host import Session\n",
     "companion.app.session.host"),
    ("companion.hw", "from .. import app\n", "companion.app"),
    ("companion.systems.coc", "from ...app import paths\n", "companion.app"),
    ("companion.dice", "from companion import app\n", "companion.app"),
])
def test_a_reverse_import_in_a_package_init_is_caught_by_its_real_name(
    package: str, source: str, target: str
) -> None:
    """In a package's ``__init__`` one dot is the package itself: ``..`` in companion/hw
    is companion, which the test took for nothing (and companion.systems.coc's ``...``
    for a module outside the standard library)."""
    assert violations(package, source, is_package=True) == [f"{package}:1 imports {target}"]


def test_inward_imports_pass() -> None:
    assert not violations("companion.systems.events.run",
                          "from companion.dice.roll import roll\nimport tomllib\n"
                          "from companion.systems.events.rules import EventRules\n")
    assert not violations("companion.hw.display.screen",
                          "from companion.hw.display.view import View\nimport pygame\n")
    assert not violations("companion.app.commands.play", "from companion.hw import display\n")
    for system in ("events", "genso", "coc"):
        assert not violations(f"companion.systems.{system}.rules",
                              "from companion.systems.defaults import Settings\n")
    assert not violations("companion.systems.defaults", "from companion.errors import DataError\n")
    assert not violations("companion.hw", "from .ports import Slot\nfrom .. import errors\n", True)
    assert not violations("companion.systems.coc", "from .rules import CocRules\n", True)


def test_every_error_that_is_no_builtin_is_named_in_architecture_md() -> None:
    """architecture.md said every kind of CompanionError is also a builtin; a few, states
    rather than bad input, are not, and the shared base's row names each of them."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| shared base |"))
    alone = {node.name for path in PACKAGE.rglob("*.py")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ClassDef)
             and [ast.unparse(base) for base in node.bases] == ["CompanionError"]}
    assert alone and sorted(name for name in alone if f"`{name}`" not in row) == []

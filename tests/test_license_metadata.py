"""setup69 NIT 5: pyproject.toml said `license = "MIT"` with no license file, and the wheel
carries the book's tables (CC BY-SA 4.0) and the tile pictures (CC0). A top-level LICENSE
now says which is which, and the metadata's expression names all three.

Read from the tree under test (pyproject.toml, LICENSE), not from the installed metadata:
a venv not reinstalled since (bootstrap.sh not run again) still has the old metadata, and
another checkout's (reviews69 NIT 5)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_license_file_and_the_metadata_name_the_codes_and_the_datas_licenses() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    terms = set(project["license"].split(" AND "))
    assert {"MIT", "CC-BY-SA-4.0", "CC0-1.0"} <= terms
    assert "LICENSE" in project["license-files"]
    assert all((ROOT / name).is_file() for name in project["license-files"])
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 JongRogue Companion contributors\n")
    assert "companion/systems/jongrogue/data/" in text and "CC BY-SA 4.0" in text
    for table in sorted((ROOT / "companion/systems/jongrogue/data").glob("*.toml")):
        if table.name != "profile.toml":  # the companion's own defaults
            assert table.name in text, table.name
    # The tile pictures the expression's CC0-1.0 is for, and their own license file.
    assert "companion/assets/tiles/: public domain (CC0 1.0)" in text
    assert "companion/assets/tiles/LICENSE.md" in project["license-files"]

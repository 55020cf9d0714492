"""Review reviewj68 NIT 3: coc's and genso's packaged data are read as a player's file is
(companion.errors.utf8_text): a byte-order mark dropped, a bad byte a DataError naming its
place, not a UnicodeDecodeError traceback."""

from __future__ import annotations

import codecs
import shutil
from importlib.resources import files
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.coc import rules as coc_rules
from companion.systems.genso import lore as genso_lore
from companion.systems.genso import rules as genso_rules


def _copy(package: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          *modules: object) -> Path:
    """A copy of ``package``'s data, read in its place by ``modules`` (each finds it by its
    ``files``; genso's lore had one of its own)."""
    shutil.copytree(Path(str(files(package).joinpath("data"))), tmp_path / "data")
    for module in modules:
        monkeypatch.setattr(module, "files", lambda name: tmp_path, raising=False)
    return tmp_path / "data"


def test_cocs_data_with_a_bom_reads_and_a_bad_byte_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A BOM was "not TOML (Invalid statement (at line 1, column 1))", a bad byte a
    UnicodeDecodeError traceback."""
    want = coc_rules.load_rules(coc_rules.Profile.P003)
    data = _copy("companion.systems.coc", tmp_path, monkeypatch, coc_rules)
    name = "rules.toml"
    file = data / name
    text = file.read_bytes()
    file.write_bytes(codecs.BOM_UTF8 + text)
    assert coc_rules.load_rules(coc_rules.Profile.P003) == want
    file.write_bytes(b"#\xff\n" + text)
    with pytest.raises(DataError) as told:
        coc_rules.load_rules(coc_rules.Profile.P003)
    assert str(told.value) == (f"the rules data file companion/systems/coc/data/{name} is not "
                               "UTF-8 text (byte 2 cannot be read)")


def test_gensos_data_and_lore_name_a_bad_byte(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _copy("companion.systems.genso", tmp_path, monkeypatch, genso_rules, genso_lore)
    for name, load in (("items.toml", genso_rules.load_rules),
                       (genso_lore.LORE_FILE, genso_lore.load_lore)):
        file = data / name
        file.write_bytes(codecs.BOM_UTF8 + b"#\xfe\n" + file.read_bytes())
        with pytest.raises(DataError) as told:
            load()
        assert str(told.value) == (f"the rules data file companion/systems/genso/data/{name} "
                                   "is not UTF-8 text (byte 5 cannot be read)")


def test_gensos_lore_with_a_bom_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lore.toml was read with "utf-8" alone: a BOM made it "no [lore] pages"."""
    want = genso_lore.load_lore()
    file = _copy("companion.systems.genso", tmp_path, monkeypatch, genso_rules, genso_lore) \
        / genso_lore.LORE_FILE
    file.write_bytes(codecs.BOM_UTF8 + file.read_bytes())
    assert genso_lore.load_lore() == want

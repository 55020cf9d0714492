"""The systems' packaged data read as a player's file is: a BOM dropped, a bad byte named.

Review reviewj68 NIT 3: the dice systems' packaged data (coc, genso and its lore, events,
each system's readings.toml) are read as a player's file is, through one reader
(companion.systems.defaults.packaged_text, over companion.errors.utf8_text): a byte-order
mark dropped, a bad byte a DataError naming its place, not a UnicodeDecodeError traceback."""

from __future__ import annotations

import codecs
import shutil
from importlib.resources import files
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems import defaults
from companion.systems.coc import rules as coc_rules
from companion.systems.events import rules as events_rules
from companion.systems.genso import lore as genso_lore
from companion.systems.genso import rules as genso_rules


def _copy(package: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          *modules: object) -> Path:
    """A copy of ``package``'s data, read in its place: by the shared reader, and by each of
    ``modules`` that finds the data by a ``files`` of its own (as each system's reader did)."""
    shutil.copytree(Path(str(files(package).joinpath("data"))), tmp_path / "data")
    for module in (defaults, *modules):
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


def test_events_data_with_a_bom_reads_and_a_bad_byte_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    want = events_rules.load_rules()
    file = _copy("companion.systems.events", tmp_path, monkeypatch, events_rules) \
        / events_rules.DATA_FILE
    text = file.read_bytes()
    file.write_bytes(codecs.BOM_UTF8 + text)
    assert events_rules.load_rules() == want
    file.write_bytes(text.replace(b"\n", b"\n#\xc3\n", 1))
    at = text.index(b"\n") + 3  # the byte after "#", counted from 1
    with pytest.raises(DataError) as told:
        events_rules.load_rules()
    assert str(told.value) == ("the rules data file companion/systems/events/data/events.toml "
                               f"is not UTF-8 text (byte {at} cannot be read)")


@pytest.mark.parametrize("package", ["companion.systems.coc", "companion.systems.genso",
                                     "companion.systems.events"])
def test_a_systems_readings_with_a_bom_reads_and_a_bad_byte_is_named(
        package: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """readings.toml (`<system> defaults`' fixed readings) was refused with a BOM, "not TOML
    (Invalid statement)", and a bad byte was a UnicodeDecodeError."""
    settings = {"companion.systems.coc": lambda: coc_rules.load_rules().defaults,
                "companion.systems.genso": lambda: genso_rules.load_rules().settings,
                "companion.systems.events": lambda: events_rules.load_rules().settings}[package]()
    want = defaults.fixed_readings(package, settings)
    file = _copy(package, tmp_path, monkeypatch) / "readings.toml"
    text = file.read_bytes()
    file.write_bytes(codecs.BOM_UTF8 + text)
    assert defaults.fixed_readings(package, settings) == want
    file.write_bytes(b"\xff" + text)
    with pytest.raises(DataError) as told:
        defaults.fixed_readings(package, settings)
    assert str(told.value) == (f"the rules data file {package.replace('.', '/')}/data/"
                               "readings.toml is not UTF-8 text (byte 1 cannot be read)")

"""Files kept aside and folders a file stands in, for the tests of fight and event files listed
under a file or cut short."""

from __future__ import annotations

from pathlib import Path

from companion.app.paths import data_dir
from companion.files import load_toml_kept


def a_file_in_the_folder_s_place(name: str) -> Path:
    folder = data_dir() / name
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("x\n")
    return folder


def blocked(folder: Path, held: str) -> str:
    return (f"companion: error: {folder}: a file where a folder should be (to hold {held}); "
            "move it away\n")


def kept_list(path: Path, data: bytes) -> list[str]:
    path.write_bytes(data)
    notices: list[str] = []
    assert load_toml_kept(path, 4096, "list of poisons", dict, {"none": 1}, "none is tracked",
                          notices) == {"none": 1}
    (kept,) = path.parent.glob(f"{path.name}.corrupt-*")
    kept.unlink()
    return [notice.split("; it was kept as")[0] for notice in notices]

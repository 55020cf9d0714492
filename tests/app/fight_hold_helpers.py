"""A table process that holds a fight file (as a running table does) until its stdin closes,
for the tests of fight commands refused while a table plays the fight."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.companion_process import ROOT

#: A child that holds ``argv[1]`` as the table ``argv[2]`` is until its standard input closes.
TABLE = """
import sys
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
"""


def held_by_a_table(path: Path, holder: str) -> subprocess.Popen[str]:
    table = subprocess.Popen([sys.executable, "-c", TABLE, str(path), holder], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert table.stdout is not None and table.stdout.readline() == "held\n"
    return table


def stopped(table: subprocess.Popen[str]) -> None:
    assert table.stdin is not None
    table.stdin.close()
    table.wait(timeout=30)

"""What the simulator leaves in the firmware folder that firmware/README.md copies to the Pico."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from companion.hw.rfid.simulator import FIRMWARE_DIR

ROOT = Path(__file__).resolve().parents[2]
LOAD = """
import sys
from pathlib import Path
from companion.hw.rfid import simulator
simulator.FIRMWARE_DIR = Path(sys.argv[1])
simulator.load_firmware_logic().Tray
"""


def test_the_simulator_writes_no_bytecode_into_the_firmware_folder(tmp_path: Path) -> None:
    """Audit rfid #8: `companion rfid simulate` (and the tests, the bench) imported
    firmware/jrtray in place and left jrtray/__pycache__/*.pyc there, which the documented
    `mpremote cp -r jrtray :` then copied onto the Pico's flash."""
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", LOAD, str(firmware)], cwd=ROOT, env=env, check=True)
    assert not list(firmware.rglob("__pycache__"))

"""scripts/install-pi.sh: valid shell, and in --dry-run it plans packages, groups and the unit."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"


def test_script_parses() -> None:
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_dry_run_plans_packages_groups_venv_and_unit(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            check=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    out = result.stdout
    assert "python3-picamera2" in out and "fonts-noto-cjk" in out and "python3-lgpio" in out
    assert "python3 -m venv --system-site-packages" in out
    assert "numpy<2" in out  # bookworm's picamera2 is built for numpy 1.x
    assert "python3-pygame" in out  # the system SDL has KMS/DRM, pip's pygame has not
    assert "[Service]" in out and "Restart=always" in out
    assert f'ExecStart="{ROOT}/.venv/bin/companion" play --resume' in out
    assert "Environment=SDL_VIDEODRIVER=kmsdrm" in out
    assert "systemctl enable jongrogue-companion.service" in out
    # `companion` on the PATH from the next login (~/.profile adds ~/.local/bin)
    home = pwd.getpwuid(os.getuid()).pw_dir  # the player's home as getent gives it
    assert f"ln -sfn {ROOT}/.venv/bin/companion {home}/.local/bin/companion" in out


def test_a_checkout_path_with_a_space_is_quoted_in_the_unit_and_the_printed_lines(
    tmp_path: Path,
) -> None:
    """systemd split ExecStart=/home/pi/my repo/.venv/bin/companion at the space and ran
    /home/pi/my; the dry run printed numpy<2 unquoted, which a shell reads as a redirect."""
    repo = tmp_path / "my repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, repo / "scripts" / "install-pi.sh")
    result = subprocess.run(["bash", str(repo / "scripts" / "install-pi.sh"), "--dry-run"],
                            capture_output=True, text=True, check=True,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    lines = result.stdout.splitlines()
    assert f'ExecStart="{repo}/.venv/bin/companion" play --resume' in lines
    pip = next(line for line in lines if "pip install -q -e" in line)
    assert shlex.split(pip.removeprefix("+ ")) == [
        f"{repo}/.venv/bin/python", "-m", "pip", "install", "-q", "-e", str(repo), "numpy<2"]


def test_unknown_option_is_refused() -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True,
                            text=True)
    assert result.returncode == 2 and "unknown option --frobnicate" in result.stderr


def test_run_with_sudo_makes_the_config_folder_as_the_player(tmp_path: Path) -> None:
    """`sudo bash install-pi.sh` on a fresh image: ~/.config made by root would stay root's,
    and the player's other programs could not write their settings. `id` answers as root
    does here, whoever runs the test; SUDO_USER is the player."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_id = bin_dir / "id"
    fake_id.write_text('#!/bin/sh\nif [ "$1" = -u ]; then echo 0; else exec /usr/bin/id "$@"; fi\n')
    fake_id.chmod(0o755)
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service"],
                            capture_output=True, text=True, check=True,
                            env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path),
                                 "SUDO_USER": "nobody"})
    home = subprocess.run(["getent", "passwd", "nobody"], capture_output=True, text=True,
                          check=True).stdout.split(":")[5]
    assert f"+ sudo -u nobody mkdir -p {home}/.config/jongrogue-companion" in result.stdout
    assert "chown -R" not in result.stdout

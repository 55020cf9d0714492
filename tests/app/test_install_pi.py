"""scripts/install-pi.sh: valid shell, and in --dry-run it plans packages, groups and the unit."""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.app.install_pi_helpers import ROOT, SCRIPT, logged_in_as, next_steps, stand_in


def quoted(path: Path) -> str:
    """``path`` as the script prints it in a command, quoted where it must be (a checkout
    at a path with a space: robust59 F5)."""
    return shlex.quote(str(path))


NOBODY_HOME = pwd.getpwnam("nobody").pw_dir


def test_script_parses() -> None:
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_dry_run_plans_packages_groups_venv_and_unit(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            check=True, env=logged_in_as(tmp_path, "nobody", 65534))
    out = result.stdout
    assert "python3-picamera2" in out and "fonts-noto-cjk" in out and "python3-lgpio" in out
    assert "python3 -m venv --system-site-packages" in out
    assert "numpy<2" in out  # bookworm's picamera2 is built for numpy 1.x
    assert "python3-pygame" in out  # the system SDL has KMS/DRM, pip's pygame has not
    assert "[Service]" in out and "Restart=always" in out and "User=nobody" in out
    # env58 D1: the journal gets UTF-8 whatever the system's locale
    assert "Environment=PYTHONUTF8=1" in out.splitlines()
    assert f'ExecStart="{ROOT}/.venv/bin/companion" play --resume' in out
    assert "Environment=SDL_VIDEODRIVER=kmsdrm" in out
    assert "systemctl enable jongrogue-companion.service" in out
    # `companion` on the PATH from the next login (~/.profile adds ~/.local/bin)
    assert f"ln -sfn {quoted(ROOT / '.venv/bin/companion')} {NOBODY_HOME}/.local/bin/companion" \
        in out


def test_the_packages_bring_fc_match_which_finds_the_japanese_font(tmp_path: Path) -> None:
    """env58 R3: fonts-noto-cjk does not depend on fontconfig, and an install without
    recommends had the font on disk and no fc-match to find it."""
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=logged_in_as(tmp_path, "nobody", 65534)).stdout
    install = next(line for line in out.splitlines()
                   if "apt-get install" in line and "fonts-noto-cjk" in line)
    assert {"fonts-noto-cjk", "fontconfig"} <= set(shlex.split(install))


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
                            env=logged_in_as(tmp_path, "nobody", 65534))
    lines = result.stdout.splitlines()
    assert f'ExecStart="{repo}/.venv/bin/companion" play --resume' in lines
    pip = next(line for line in lines if " -e " in line and "pip install" in line)
    assert shlex.split(pip.removeprefix("+ ")) == [
        "env", "PYTHONWARNINGS=ignore:Editable installation", f"{repo}/.venv/bin/python",
        "-m", "pip", "install", "-q", "-c", f"{repo}/scripts/pi-constraints.txt", "-e",
        str(repo), "numpy<2"]


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
    stand_in(bin_dir, "dpkg", "echo arm64")
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service"],
                            capture_output=True, text=True, check=True,
                            env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path),
                                 "SUDO_USER": "nobody"})
    home = subprocess.run(["getent", "passwd", "nobody"], capture_output=True, text=True,
                          check=True).stdout.split(":")[5]
    assert f"+ sudo -u nobody mkdir -p {home}/.config/jongrogue-companion" in result.stdout
    assert "chown -R" not in result.stdout


def test_stopping_the_service_is_no_failure(tmp_path: Path) -> None:
    """`sudo systemctl stop jongrogue-companion`, the documented way to stop it, left the
    unit "failed": the companion saves and exits 130, as after Ctrl-C, and systemd counts
    only 0 as clean unless told."""
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            check=True, env=logged_in_as(tmp_path, "nobody", 65534))
    assert "130" in unit_of(result.stdout)["Service"]["SuccessExitStatus"].split()


def unit_of(out: str) -> dict[str, dict[str, str]]:
    """The unit a dry run would write, its settings by section."""
    return _sections(out[out.index("[Unit]"):out.index("[Install]")])


def test_quit_to_console_is_not_started_again(tmp_path: Path) -> None:
    """install58 R5: the System menu's Quit to console leaves the screen to the console; the
    unit offers it (it names itself to the companion) and does not start the companion again
    after its exit status, nor count it a failure."""
    console = int(subprocess.run(
        [sys.executable, "-c", "from companion.app.session.system_menu import "
         "CONSOLE_EXIT_STATUS as s; print(s)"], cwd=ROOT, capture_output=True, text=True,
        check=True).stdout)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=logged_in_as(tmp_path, "nobody", 65534)).stdout
    service = unit_of(out)["Service"]
    assert service["RestartPreventExitStatus"] == str(console)
    assert service["SuccessExitStatus"].split() == ["130", str(console)]
    assert "Environment=COMPANION_SERVICE=jongrogue-companion" in out.splitlines()


def test_a_root_login_is_refused_with_what_to_do_instead(tmp_path: Path) -> None:
    """From `su -` the venv, the `companion` command and the boot service were all root's,
    and the closing "companion is on your PATH" was untrue (root's PATH lacks ~/.local/bin).
    A dry run, which changes nothing, shows the plan and says a real install stops."""
    env = logged_in_as(tmp_path, "root", 0)
    calls = tmp_path / "calls"
    for command in ("apt-get", "usermod", "python3", "systemctl"):  # would change this system
        stand_in(tmp_path / "bin", command, f'echo {command} >> "{calls}"; exit 1')
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env)
    assert result.returncode == 2 and result.stdout == "" and not calls.exists()
    assert "run this as the user who will play (sudo is fine" in result.stderr
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0 and "apt-get install" in result.stdout
    assert "dry run from a root login: a real install here stops" in result.stderr


def test_a_dry_run_without_systemd_says_nothing_of_its_bus(tmp_path: Path) -> None:
    """In a container or chroot, `systemctl is-active` printed "System has not been booted
    with systemd…" and "Failed to connect to bus" amid the plan."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    stand_in(tmp_path / "bin", "systemctl",
             'echo "Failed to connect to bus: Host is down" >&2; exit 1')
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            check=True, env=env)
    assert "bus" not in result.stderr
    assert "start it now with: sudo systemctl start jongrogue-companion" in result.stdout


def test_a_pi_that_boots_to_a_desktop_is_told_to_boot_to_the_console(tmp_path: Path) -> None:
    """The Imager's default image boots to a desktop, which holds the screen: the service,
    drawing with KMS/DRM, could not open it and was started again every 3 s, and nothing
    said why."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    systemctl = tmp_path / "bin" / "systemctl"
    systemctl.write_text('#!/bin/sh\n[ "$1" = get-default ] && echo graphical.target\nexit 3\n')
    systemctl.chmod(0o755)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert "this Pi boots to a desktop, which keeps the screen from the companion" in out
    assert "sudo raspi-config nonint do_boot_behaviour B1 && sudo reboot" in out
    systemctl.write_text('#!/bin/sh\n[ "$1" = get-default ] && echo multi-user.target\nexit 3\n')
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert "boots to a desktop" not in out


def test_the_unit_turns_onnxruntimes_telemetry_off(tmp_path: Path) -> None:
    """onnxruntime's official builds send usage events to Microsoft and keep a device id
    and an event database under ~/.cache/Microsoft unless ORT_DISABLE_TELEMETRY=1."""
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            check=True, env=logged_in_as(tmp_path, "nobody", 65534))
    assert "Environment=ORT_DISABLE_TELEMETRY=1" in result.stdout.splitlines()


def test_restarts_are_bounded_but_an_error_on_the_screen_is_shown_again(tmp_path: Path) -> None:
    """Restart=always, RestartSec=3 and no start limit (systemd's default, 5 starts in
    10 s, cannot trip 3 s apart): a crash at start (OpenCV 4.11's AttributeError, a setting
    refused before the screen opens) started the companion again every 3 s forever. An error
    the companion shows on the screen holds it for a minute before each restart: that cycle
    must stay under the limit, so the player keeps seeing why it stopped."""
    shown_s = float(subprocess.run(  # the tests' conftest sets it to 0 in this process
        [sys.executable, "-c", "from companion.app.commands.play.telling import "
         "STOP_SHOWN_SECONDS as s; print(s)"], cwd=ROOT, capture_output=True, text=True,
        check=True).stdout)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=logged_in_as(tmp_path, "nobody", 65534)).stdout
    unit = out[out.index("[Unit]"):out.index("[Install]")]
    sections = _sections(unit)
    interval = float(sections["Unit"]["StartLimitIntervalSec"])
    burst = int(sections["Unit"]["StartLimitBurst"])
    restart_s = float(sections["Service"]["RestartSec"])
    assert sections["Service"]["Restart"] == "always"
    # A crash at once, each start taking a second or two, trips the limit within it...
    assert interval / (restart_s + 2) > burst
    # ...and so does a stop 25 s after each start before the screen opens (soak62 R2's, a
    # slow Pi's start; at 20 in 300 s only stops within 12 s tripped it). A crash once the
    # screen is open is shown and held as an error is, as below (session.py hands it to
    # telling.py's show_stop, STOP_HELD_SINCE_START_SECONDS: d883f035, 1a335265).
    # systemd counts the starts in a window from the first: burst + 1 in it are refused...
    assert burst * (25 + restart_s) <= interval
    # ...an error held on the screen, started again after each, never does.
    assert shown_s >= 30 and interval / (shown_s + restart_s) < burst / 2


def _sections(unit: str) -> dict[str, dict[str, str]]:
    """A unit file's settings by section (the last of a repeated key)."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in unit.splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
        elif "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            current[key] = value
    return sections


def test_a_32_bit_system_is_refused_before_anything_is_changed(tmp_path: Path) -> None:
    """32-bit Raspberry Pi OS (armhf): PyPI has no onnxruntime or OpenCV wheel for it, and
    pip failed after the Debian packages and the groups were changed."""
    env = logged_in_as(tmp_path, "nobody", 65534, arch="armhf")
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True,
                            text=True, env=env)
    assert result.returncode == 2 and "apt-get" not in result.stdout
    assert "needs 64-bit Raspberry Pi OS (arm64), and this system is armhf" in result.stderr


def test_a_real_install_on_a_pc_is_refused_and_its_dry_run_shows_the_plan(
    tmp_path: Path,
) -> None:
    """amd64 has the wheels but not the Pi's apt packages (python3-picamera2, lgpio): a real
    install stops before apt; a dry run there shows the Pi's plan, saying so."""
    env = logged_in_as(tmp_path, "nobody", 65534, arch="amd64")
    bin_dir = tmp_path / "bin"
    calls = tmp_path / "calls"
    for command in ("apt-get", "sudo", "usermod", "python3"):  # would change this system
        stand_in(bin_dir, command, f'echo {command} >> "{calls}"; exit 1')
    result = subprocess.run(["bash", str(SCRIPT), "--no-service"], capture_output=True,
                            text=True, env=env)
    assert result.returncode == 2 and not calls.exists()
    assert "needs 64-bit Raspberry Pi OS (arm64), and this system is amd64" in result.stderr
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True,
                            text=True, env=env)
    assert result.returncode == 0 and "apt-get install" in result.stdout
    assert "dry run on amd64: the plan a 64-bit Raspberry Pi OS (arm64) gets" in result.stderr


def with_memory(env: dict[str, str], tmp_path: Path, megabytes: int) -> dict[str, str]:
    """``env`` on a system of ``megabytes`` of memory, as getconf tells it."""
    stand_in(tmp_path / "bin", "getconf",
             f'case "$1" in _PHYS_PAGES) echo {megabytes * 256};; PAGE_SIZE) echo 4096;; '
             f'*) exec /usr/bin/getconf "$@";; esac')
    return env


def test_the_compiled_rules_core_is_built_last_and_its_failure_stops_nothing(
    tmp_path: Path,
) -> None:
    """install-pi.sh never built the compiled core (nor installed its compiler, Python's
    headers or mypyc), so a Pi always ran the pure one, which nothing said."""
    env = with_memory(logged_in_as(tmp_path, "nobody", 65534), tmp_path, 4096)
    lines = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                           check=True, env=env).stdout.splitlines()

    def where(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    compiler = where("apt-get install -y -qq gcc libc6-dev python3-dev")
    mypy = where(f"pip install -q -c {quoted(CONSTRAINTS)} mypy setuptools")
    build = where(f"{quoted(ROOT / '.venv/bin/python')} "
                  f"{quoted(ROOT / 'scripts/build_compiled.py')}")
    assert where(" -e ") < where("systemctl enable") < compiler < mypy < build
    assert lines[build + 1:build + 3] == [
        "== done. Log out and back in (or reboot) so the new groups apply and the",
        "   companion command is on your PATH."]
    assert not any(line.startswith("+") for line in lines[build + 1:])  # the next steps

    # Run for real, with each of its commands failing in turn: the install goes on.
    script = SCRIPT.read_text()
    start = script.index('if [ "$WITH_COMPILED" = 1 ]; then')
    step = script[start:script.index("\nfi\n", start) + 4]
    harness = """set -euo pipefail
    WITH_COMPILED=1 VENV=/venv REPO=/repo CONSTRAINTS=(-c constraints.txt)
    getconf() { case $1 in _PHYS_PAGES) echo 1048576;; PAGE_SIZE) echo 4096;; esac; }
    as_root() { [ "$FAIL" != apt-get ]; }
    as_player() { case "$*" in *"pip install"*) [ "$FAIL" != pip ];;
                               *build_compiled.py) [ "$FAIL" != build ];; esac; }
    """
    for failing in ("apt-get", "pip", "build", "nothing"):
        done = subprocess.run(["bash", "-c", harness + step + "\necho installed"],
                              capture_output=True, text=True, env={"FAIL": failing})
        assert done.returncode == 0 and done.stdout.endswith("installed\n"), failing
        assert ("not built (see above)" in done.stdout) == (failing != "nothing"), failing


def test_the_compiled_rules_core_is_skipped_on_a_1_gb_pi_and_when_asked(
    tmp_path: Path,
) -> None:
    """Its build peaks at ~0.5 GB, too much beside the running service on a Pi 3."""
    env = with_memory(logged_in_as(tmp_path, "nobody", 65534), tmp_path, 906)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert "skipped: building it takes ~0.5 GB of memory, and this system has 906 MB" in out
    assert "build_compiled.py" not in out and "python3-dev" not in out
    env = with_memory(env, tmp_path, 8192)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-compiled"],
                         capture_output=True, text=True, check=True, env=env).stdout
    assert "compiled rules core" not in out and "python3-dev" not in out


CONSTRAINTS = ROOT / "scripts" / "pi-constraints.txt"


def pins() -> dict[str, str]:
    """scripts/pi-constraints.txt's pins, by normalised name."""
    found = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{line}: a constraint pins one version (==)"
            found[re.sub(r"[-_.]+", "-", name).lower()] = version
    return found


def test_pip_installs_the_pis_tested_versions(tmp_path: Path) -> None:
    """Nothing was pinned: a Pi took what PyPI had that day (OpenCV 4.11 with numpy<2)
    while every test ran on OpenCV 5.1 and numpy 2, and USB webcams crashed."""
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=logged_in_as(tmp_path, "nobody", 65534)).stdout
    pip = next(line for line in out.splitlines() if " -e " in line and "pip install" in line)
    assert f"-c {quoted(CONSTRAINTS)} -e {quoted(ROOT)} 'numpy<2'" in pip
    pinned = pins()
    assert pinned["numpy"].startswith("1.")  # install-pi.sh's numpy<2, for picamera2
    assert pinned["opencv-python-headless"].startswith("4.")  # OpenCV 5 needs numpy 2
    assert "pygame" not in pinned  # the Pi's own python3-pygame (KMS/DRM), from apt
    with (ROOT / "pyproject.toml").open("rb") as f:
        wanted = tomllib.load(f)["project"]["dependencies"]
    for text in wanted:  # every dependency the venv installs is pinned, within its bounds
        requirement = Requirement(text)
        if requirement.name != "pygame":
            version = pinned[re.sub(r"[-_.]+", "-", requirement.name).lower()]
            assert requirement.specifier.contains(version), (text, version)


def test_the_system_menu_may_power_the_pi_off(tmp_path: Path) -> None:
    """The System menu's Shut down (buttons-only audit F1) runs ``systemctl poweroff`` as the
    service's user, who is in no login session: a polkit rule lets that user, and no other,
    power off; the config the script writes names the command."""
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                            check=True, env=logged_in_as(tmp_path, "nobody", 65534))
    out = result.stdout
    assert "polkitd" in out  # Raspberry Pi OS Lite may lack it
    rule = out[out.index("+ write /etc/polkit-1/rules.d/50-jongrogue-companion.rules:"):]
    rule = rule[:rule.index("});") + 3]
    assert '"org.freedesktop.login1.power-off"' in rule and 'subject.user == "nobody"' in rule
    assert "polkit.Result.YES" in rule
    assert written_config(out)["play"] == {"shutdown_command": "systemctl poweroff"}


def written_config(out: str) -> dict[str, object]:
    """The config.toml a dry run would write, parsed."""
    _, _, rest = out.partition("config.toml:\n")
    return tomllib.loads(rest.split("\n== ", 1)[0])


def test_input_rfid_writes_the_tray_into_the_first_config(tmp_path: Path) -> None:
    """An RFID-only build got `[input] kind = "camera"`: its boot service opened the camera,
    and with none said to check a ribbon cable. `--input rfid` writes the tray; no option
    keeps the camera."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    for args, kind in ((["--input", "rfid"], "rfid"), (["--input=rfid"], "rfid"), ([], "camera")):
        result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", *args],
                                capture_output=True, text=True, check=True, env=env)
        assert written_config(result.stdout)["input"] == {"kind": kind}, args
        assert ("companion calibrate rfid" in result.stdout) == (kind == "rfid")


def test_input_takes_camera_or_rfid_only() -> None:
    for args in (["--input", "tray"], ["--input"]):
        result = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True)
        assert result.returncode == 2, args
        assert "--input takes camera or rfid" in result.stderr, args


def test_input_over_a_kept_config_says_what_to_set(tmp_path: Path) -> None:
    """The player's config.toml is never rewritten: --input says where the setting goes."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    bin_dir = tmp_path / "bin"
    stand_in(bin_dir, "getent", f'echo "nobody:x:65534:65534::{tmp_path}:/bin/sh"')
    config = tmp_path / ".config" / "jongrogue-companion" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[input]\nkind = "camera"\n')
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", "--input", "rfid"],
                            capture_output=True, text=True, check=True, env=env)
    assert f"keeping {config}" in result.stdout
    assert 'set it there under [input]: kind = "rfid"' in result.stdout
    assert config.read_text() == '[input]\nkind = "camera"\n'
    # install58 R4: said again first in the closing steps, which a maker follows, far below.
    assert next_steps(result.stdout)[0] == f'set [input] kind = "rfid" in {config}'


def test_the_next_steps_of_a_camera_build_and_a_tray_build(tmp_path: Path) -> None:
    """install58 N2, N5: a camera build was given no next step; the tray's flash came before
    the service that holds its port was stopped (a re-flash needs the port)."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    stop = "sudo systemctl stop jongrogue-companion (or the System menu's Quit to console)"
    start = "sudo systemctl start jongrogue-companion"
    for args, steps in (
            ([], ["print the mat (docs/mat.pdf)", stop, "companion calibrate camera", DICE,
                  start]),
            (["--no-service"],
             ["print the mat (docs/mat.pdf)", "companion calibrate camera", DICE]),
            (["--input", "rfid"], [stop, "flash the tray (firmware/README.md)",
                                   "companion calibrate rfid", start]),
            (["--input", "rfid", "--no-service"], ["flash the tray (firmware/README.md)",
                                                   "companion calibrate rfid"])):
        out = subprocess.run(["bash", str(SCRIPT), "--dry-run", *args], capture_output=True,
                             text=True, check=True, env=env).stdout
        assert next_steps(out) == steps, args
        guide = "hardware/README.md" if "rfid" in args else "hardware/camera.md"
        assert f"in this order ({guide}):" in out, args


def test_the_venv_is_debians_python_and_sees_its_packages(tmp_path: Path) -> None:
    """install58 R3: a pyenv python3 first on PATH built the venv, whose "system site
    packages" were not Debian's: picamera2, lgpio and the apt pygame were not seen (and the
    pip pygame was then uninstalled). The venv is /usr/bin/python3's, and a system package
    it cannot see is named after the install."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    stand_in(tmp_path / "bin", "python3", "exit 1")  # another python3, first on PATH
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                         check=True, env=env).stdout
    # --clear when this .venv is not one install-pi.sh made on this system, nor Debian's
    # Python's with an onnxruntime and cv2 that load (setup69 DEFECT 1, reviews69 RISK 1: the
    # dev venv may be either; tests/app/test_install_pi_copied_venv.py tells them apart).
    assert any(line == (f"+ /usr/bin/python3 -m venv --system-site-packages{clear} "
                        f"{quoted(ROOT / '.venv')}") for line in out.splitlines()
               for clear in ("", " --clear"))
    check = next(line for line in out.splitlines() if line.endswith(" pygame lgpio picamera2"))
    words = shlex.split(check.removeprefix("+ "))
    assert words[0] == f"{ROOT}/.venv/bin/python"
    seen = subprocess.run([sys.executable, *words[1:-3], "json", "no_such_system_package"],
                          capture_output=True, text=True)
    assert seen.returncode == 1
    assert seen.stderr == ("   warning: the venv does not see the system package(s) "
                           "no_such_system_package: sudo apt install "
                           "python3-no_such_system_package, then bash scripts/install-pi.sh "
                           "again\n")
    assert subprocess.run([sys.executable, *words[1:-3], "json"]).returncode == 0


def test_input_rfid_names_the_services_stop_and_start_only_when_it_installs_one(
        tmp_path: Path) -> None:
    """Review 56 #6: `--no-service --input rfid` told the maker to `systemctl stop` and
    `start` a unit it had not installed, and both failed ("Unit … not loaded")."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    for args, service in ((["--no-service"], False), ([], True)):
        result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--input", "rfid", *args],
                                capture_output=True, text=True, check=True, env=env)
        steps = result.stdout[result.stdout.index("The RFID tray, in this order"):]
        assert "companion calibrate rfid" in steps, args
        assert ("sudo systemctl stop jongrogue-companion" in steps) == service, args
        assert ("sudo systemctl start jongrogue-companion" in steps) == service, args


@pytest.mark.parametrize("kept", [
    '[input]\nkind = "rfid"\n', "[display]\nkind = 'screen'\n\n[input]  # tiles\nkind = 'rfid'\n"])
def test_input_over_a_kept_config_that_says_it_already_asks_nothing(
        tmp_path: Path, kept: str) -> None:
    """Review 56 #6: over a kept config.toml whose [input] already says kind = "rfid",
    `--input rfid` still told the maker to set it there."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    stand_in(tmp_path / "bin", "getent", f'echo "nobody:x:65534:65534::{tmp_path}:/bin/sh"')
    config = tmp_path / ".config" / "jongrogue-companion" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(kept)
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", "--input", "rfid"],
                            capture_output=True, text=True, check=True, env=env)
    assert f"keeping {config}" in result.stdout
    assert "set it there" not in result.stdout and "set [input]" not in result.stdout
    assert config.read_text() == kept


def test_the_companion_is_compiled_after_its_install(tmp_path: Path) -> None:
    """pi59 F4: the first start after an install compiled every module, 6 to 7 s of
    `companion --help` on a slow Pi core (and of the boot service's first screen)."""
    lines = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                           check=True, env=logged_in_as(tmp_path, "nobody", 65534)
                           ).stdout.splitlines()
    install = next(n for n, line in enumerate(lines) if " -e " in line and "pip install" in line)
    compiled = next(n for n, line in enumerate(lines)
                    if f"-m compileall -q {quoted(ROOT / 'companion')}" in line)
    assert install < compiled


SERVICE_FILE = "etc/systemd/system/jongrogue-companion.service"
POLKIT_FILE = "etc/polkit-1/rules.d/50-jongrogue-companion.rules"


def installed(tmp_path: Path, name: str = "nobody", uid: int = 65534,
              arch: str = "arm64") -> tuple[dict[str, str], Path, Path]:
    """A system the install ran on, under a root of the test's own (INSTALL_PI_ROOT): its
    unit, its polkit rule, the player's ``companion`` link, a save, the history and a
    config. ``sudo`` and ``systemctl`` are stand-ins that record their calls (in
    ``calls``); ``getent`` gives the player a home in ``tmp_path``. The environment, the
    root and the home."""
    env = logged_in_as(tmp_path, name, uid, arch)
    bin_dir, root, home = tmp_path / "bin", tmp_path / "root", tmp_path / "home"
    calls = tmp_path / "calls"
    stand_in(bin_dir, "sudo", f'echo "sudo $*" >> "{calls}"\n'
                              '[ "$1" = -u ] && shift 2\nexec "$@"')
    stand_in(bin_dir, "systemctl", f'echo "systemctl $*" >> "{calls}"')
    stand_in(bin_dir, "getent", f'echo "nobody:x:65534:65534::{home}:/bin/sh"')
    for path, text in ((SERVICE_FILE, "[Service]\nUser=nobody\n"), (POLKIT_FILE, "rule\n")):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/bin/companion").symlink_to(ROOT / ".venv/bin/companion")
    data = home / ".local/share/jongrogue-companion"
    data.mkdir(parents=True)
    (data / "save.json").write_text('{"seed": 5}\n')
    (data / "history.sqlite3").write_bytes(b"SQLite")
    config = home / ".config/jongrogue-companion"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[play]\n")
    return {**env, "INSTALL_PI_ROOT": str(root)}, root, home


def player_files(home: Path) -> dict[str, bytes]:
    return {str(path.relative_to(home)): path.read_bytes() for path in sorted(home.rglob("*"))
            if path.is_file() and not path.is_symlink()}


def test_uninstall_removes_the_service_its_rule_and_the_command_and_keeps_the_saves(
        tmp_path: Path) -> None:
    """soak62 R1: nothing removed an install; its polkit rule lets the player power the Pi
    off without a password from any session, SSH too. Run for real (on a PC: an uninstall
    only removes files), its commands stand-ins."""
    env, root, home = installed(tmp_path, arch="amd64")
    before = player_files(home)
    done = subprocess.run(["bash", str(SCRIPT), "--uninstall"], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert not (root / SERVICE_FILE).exists() and not (root / POLKIT_FILE).exists()
    assert not (home / ".local/bin/companion").is_symlink()
    assert player_files(home) == before  # saves, history, settings
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls.index("systemctl disable --now jongrogue-companion.service") \
        < calls.index("systemctl daemon-reload")
    assert calls[0] == "sudo systemctl disable --now jongrogue-companion.service"
    out = done.stdout
    assert f"removed {root / SERVICE_FILE}" in out and f"removed {root / POLKIT_FILE}" in out
    assert f"removed {home}/.local/bin/companion" in out
    assert (f"== kept: the saves and the game history in {home}/.local/share/"
            "jongrogue-companion, and the settings and\n   calibrations in "
            f"{home}/.config/jongrogue-companion") in out
    # Again: nothing left to remove, and it says so.
    (tmp_path / "calls").unlink()
    again = subprocess.run(["bash", str(SCRIPT), "--uninstall"], capture_output=True,
                           text=True, env=env, check=True).stdout
    assert f"none ({root / SERVICE_FILE} is not there)" in again
    assert f"none ({root / POLKIT_FILE} is not there)" in again
    assert f"none ({home}/.local/bin/companion is not there)" in again
    assert not (tmp_path / "calls").exists()
    assert player_files(home) == before


def test_uninstall_from_a_root_login_and_as_a_dry_run(tmp_path: Path) -> None:
    """From `su -` the player is the service's User=; a dry run changes nothing; a
    ``companion`` that is not this checkout's link is kept; other options are refused."""
    env, root, home = installed(tmp_path)
    link = home / ".local/bin/companion"
    plan = subprocess.run(["bash", str(SCRIPT), "--uninstall", "--dry-run"],
                          capture_output=True, text=True, env=env, check=True).stdout
    assert f"+ sudo rm -f {root / SERVICE_FILE}" in plan
    assert f"+ sudo rm -f {root / POLKIT_FILE}" in plan
    assert f"+ rm -f {link}" in plan
    assert (root / SERVICE_FILE).exists() and (root / POLKIT_FILE).exists()
    assert link.is_symlink() and not (tmp_path / "calls").exists()

    env = {**env, **logged_in_as(tmp_path, "root", 0)}
    done = subprocess.run(["bash", str(SCRIPT), "--uninstall"], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert not link.is_symlink() and not (root / SERVICE_FILE).exists()
    assert f"+ sudo -u nobody rm -f {link}" not in done.stdout
    assert f"sudo -u nobody rm -f {link}" in (tmp_path / "calls").read_text().splitlines()

    link.symlink_to("/usr/local/bin/another-companion")
    env = {**env, **logged_in_as(tmp_path, "nobody", 65534)}  # (no unit names a player now)
    out = subprocess.run(["bash", str(SCRIPT), "--uninstall"], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert f"kept {link}: it is not this checkout's companion" in out and link.is_symlink()
    for other in ("--no-service", "--no-compiled", "--input=rfid"):
        refused = subprocess.run(["bash", str(SCRIPT), "--uninstall", other],
                                 capture_output=True, text=True, env=env)
        assert (refused.returncode, refused.stderr) == (
            2, "install-pi.sh: --uninstall takes --dry-run alone\n"), other


def test_no_service_names_the_polkit_rule_and_removes_it_without_the_service(
        tmp_path: Path) -> None:
    """soak62 R1: `--no-service` over an earlier install named only the unit to remove; its
    polkit rule stayed, unsaid. With the unit still there both are named (a re-run for the
    packages alone takes no service away, nor its Shut down's rule); with the unit gone, the
    rule only the service needs is removed."""
    env, root, _ = installed(tmp_path)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert ("remove\n   both with: sudo systemctl disable --now jongrogue-companion && sudo rm "
            f"{root / SERVICE_FILE} {root / POLKIT_FILE} && sudo systemctl daemon-reload") \
        in out
    assert f"rm -f {root / POLKIT_FILE}" not in out
    (root / SERVICE_FILE).unlink()
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert "== the polkit rule of a boot service since removed" in out
    assert f"+ sudo rm -f {root / POLKIT_FILE}" in out.splitlines()
    assert "systemctl disable" not in out
    (root / POLKIT_FILE).unlink()
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert "polkit" not in out.split("== config", 1)[1]


def test_help_names_uninstall() -> None:
    out = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert "--uninstall" in out and out.rstrip().endswith("rewrites the unit file.")


def test_uninstall_dry_run_says_would_remove_and_root_is_named_no_player(
        tmp_path: Path) -> None:
    """review62c N3: `--uninstall --dry-run` said "removed" of files it left; N4: a second
    uninstall from a root login (the unit gone, so no User= to read) named root as the
    player, root's folders as the saves' (on a Pi /root/.local/share, where none are)."""
    env, root, home = installed(tmp_path)
    plan = subprocess.run(["bash", str(SCRIPT), "--uninstall", "--dry-run"],
                          capture_output=True, text=True, env=env, check=True).stdout
    assert f"would remove {root / SERVICE_FILE}" in plan
    assert f"would remove {root / POLKIT_FILE}" in plan
    assert f"would remove {home}/.local/bin/companion" in plan
    assert "   removed" not in plan and (root / SERVICE_FILE).exists()
    env = {**env, **logged_in_as(tmp_path, "root", 0)}
    subprocess.run(["bash", str(SCRIPT), "--uninstall"], capture_output=True, text=True,
                   env=env, check=True)
    again = subprocess.run(["bash", str(SCRIPT), "--uninstall"], capture_output=True,
                           text=True, env=env, check=True).stdout
    owner = pwd.getpwuid(ROOT.stat().st_uid).pw_name  # the checkout's: the player then
    if owner == "root":
        assert "let the player power the Pi off" in again
        assert "the saves and the game history in the player's\n" in again
        assert "the Debian packages and the player's groups" in again
        assert "root's" not in again and " /root/" not in again.replace(str(root), "ROOT")
    else:
        assert f"let {owner} power the Pi off" in again


STOP = "sudo systemctl stop jongrogue-companion (or the System menu's Quit to console)"
START = "sudo systemctl start jongrogue-companion"
# The dice tray's calibration, which README.md and hardware/README.md say the steps list
# (cal66 N3).
DICE = "companion calibrate dice (for the dice tray: dice in the mat's dice area)"


def test_a_second_run_over_a_tray_build_gives_the_trays_next_steps(tmp_path: Path) -> None:
    """setup64 DEFECT 1: run again without --input (after an update, or for --no-compiled)
    over a kept config.toml reading [input] kind = "rfid", the closing steps were the
    camera's: print the mat, `companion calibrate camera`."""
    env, _, home = installed(tmp_path)
    config = home / ".config/jongrogue-companion/config.toml"
    for kept in ('[input]\nkind = "rfid"\n', "[input]  # tiles\nkind = 'rfid'\n"):
        config.write_text(kept)
        out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-compiled"],
                             capture_output=True, text=True, check=True, env=env).stdout
        assert next_steps(out) == [STOP, "flash the tray (firmware/README.md)",
                                   "companion calibrate rfid", START], kept
        assert "The RFID tray, in this order (hardware/README.md):" in out
        assert "calibrate camera" not in out and "set [input]" not in out
        assert config.read_text() == kept
    # A camera build, or a file that names no input, keeps the camera's steps; --input
    # camera over the tray's file says what to set first.
    for kept, args in (('[input]\nkind = "camera"\n', []), ("[play]\n", []),
                       ('[input]\nkind = "rfid"\n', ["--input", "camera"])):
        config.write_text(kept)
        out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-compiled", *args],
                             capture_output=True, text=True, check=True, env=env).stdout
        steps = next_steps(out)
        assert steps[-5:] == ["print the mat (docs/mat.pdf)", STOP,
                              "companion calibrate camera", DICE, START], (kept, args)
        assert (steps[0] == f'set [input] kind = "camera" in {config}') == bool(args)


def test_no_service_over_a_kept_unit_still_says_to_stop_and_start_it(tmp_path: Path) -> None:
    """setup64 NIT 5: `--no-service` keeps the unit an earlier install left, which holds the
    camera or the tray while it runs; the steps left out its stop, and `companion calibrate
    camera` then found the camera busy."""
    env, root, _ = installed(tmp_path)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", "--no-compiled"],
                         capture_output=True, text=True, check=True, env=env).stdout
    assert next_steps(out) == ["print the mat (docs/mat.pdf)", STOP,
                               "companion calibrate camera", DICE, START]
    (root / SERVICE_FILE).unlink()  # no unit at all: nothing to stop
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", "--no-compiled"],
                         capture_output=True, text=True, check=True, env=env).stdout
    assert next_steps(out) == ["print the mat (docs/mat.pdf)", "companion calibrate camera", DICE]


@pytest.mark.parametrize("status, said", [
    (100, "install-pi.sh: stopped: the step above failed (exit 100; no network? a full card?): "
          "mend what it says, then run"),
    (130, "install-pi.sh: interrupted: to finish, run")])
def test_a_step_that_fails_says_what_to_do_and_that_running_again_is_safe(
        tmp_path: Path, status: int, said: str) -> None:
    """setup64 NIT 4: a failed apt-get or pip ended the install with its own error and no
    line saying what to do, the packages and the groups perhaps changed by then. Run for
    real, its first step (apt-get, through sudo) failing; nothing after it runs."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    calls = tmp_path / "calls"
    stand_in(tmp_path / "bin", "sudo", f'echo "sudo $*" >> "{calls}"\nexec "$@"')
    stand_in(tmp_path / "bin", "apt-get", f'echo "E: Could not resolve host" >&2; exit {status}')
    done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env)
    assert done.returncode == status
    assert done.stderr.splitlines() == [
        "E: Could not resolve host",
        f"{said} bash scripts/install-pi.sh again; that is safe, and keeps your settings, "
        "calibrations and saves"]
    assert calls.read_text().splitlines() == ["sudo apt-get update -qq"]
    # A plan that runs through says nothing of it; nor do refusals before the install starts.
    plan = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                          env=env)
    assert (plan.returncode, plan.stderr) == (0, "")
    refused = subprocess.run(["bash", str(SCRIPT), "--input", "tray"], capture_output=True,
                             text=True, env=env)
    assert refused.returncode == 2 and "again" not in refused.stderr


def _signals_as_a_terminal_leaves_them() -> None:
    """In the child, before bash starts: SIGINT, SIGTERM and SIGHUP at their defaults. A
    non-interactive bash cannot trap a signal ignored when it started, as a runner may
    start the tests."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


@pytest.mark.parametrize("sent, status, step", [
    (signal.SIGINT, 130, "sleep 30"),
    (signal.SIGTERM, 143, "sleep 30"),
    (signal.SIGHUP, 129, "sleep 30"),
    # pip's way: it catches Ctrl-C, says "Operation cancelled by user" and exits 1.
    (signal.SIGINT, 130,
     "trap 'echo \"ERROR: Operation cancelled by user\" >&2; exit 1' INT\nsleep 30")])
def test_ctrl_c_or_a_kill_mid_step_says_interrupted_not_that_the_step_failed(
        tmp_path: Path, sent: signal.Signals, status: int, step: str) -> None:
    """review64c DEFECT 1: a Ctrl-C (SIGINT to the terminal's process group), a kill or a
    closed SSH session during a step ran the EXIT trap with the stale $? of the last
    command that finished: "stopped: the step above failed (exit 1; no network? a full
    card?)", and the "interrupted" line was never said. The signal is sent for real, to
    the script's process group, while its stand-in apt-get runs."""
    env = logged_in_as(tmp_path, "nobody", 65534)
    started = tmp_path / "apt-get-started"
    stand_in(tmp_path / "bin", "sudo", 'exec "$@"')
    stand_in(tmp_path / "bin", "apt-get", f'touch "{started}"\n{step}')
    script = subprocess.Popen(["bash", str(SCRIPT)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env,
                              start_new_session=True,
                              preexec_fn=_signals_as_a_terminal_leaves_them)
    try:
        deadline = time.monotonic() + 30
        while not started.exists():
            assert script.poll() is None and time.monotonic() < deadline, "apt-get never ran"
            time.sleep(0.05)
        time.sleep(0.2)  # the stand-in is in its sleep (and its trap set)
        os.killpg(script.pid, sent)
        _, err = script.communicate(timeout=30)
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
            script.communicate()
    assert script.returncode == status
    assert err.splitlines()[-1] == (
        "install-pi.sh: interrupted: to finish, run bash scripts/install-pi.sh again; that is "
        "safe, and keeps your settings, calibrations and saves")
    assert "failed" not in err


def test_no_service_over_a_unit_turned_off_says_nothing_of_stopping_or_starting_it(
        tmp_path: Path) -> None:
    """review64c NIT 5: a maker who ran `systemctl disable --now` and kept the unit file was
    told to stop it and, last, `sudo systemctl start jongrogue-companion`, which turned on
    the service they had turned off. Enabled or running, it is still stopped and started."""
    env, _, _ = installed(tmp_path)
    state = tmp_path / "service-state"
    stand_in(tmp_path / "bin", "systemctl",
             f'case "$1" in is-enabled|is-active) grep -qx "$1" "{state}" 2>/dev/null;; esac')
    for on, steps in (("", ["print the mat (docs/mat.pdf)", "companion calibrate camera", DICE]),
                      ("is-enabled", ["print the mat (docs/mat.pdf)", STOP,
                                      "companion calibrate camera", DICE, START]),
                      ("is-active", ["print the mat (docs/mat.pdf)", STOP,
                                     "companion calibrate camera", DICE, START])):
        state.write_text(on + "\n")
        out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-service", "--no-compiled"],
                             capture_output=True, text=True, check=True, env=env).stdout
        assert next_steps(out) == steps, on
        assert "from an earlier install is still there" in out, on

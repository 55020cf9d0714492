#!/usr/bin/env bash
# Install JongRogue Companion on a Raspberry Pi (Raspberry Pi OS bookworm, 64-bit),
# as the user who will play, from a checkout of this repository:
#
#   bash scripts/install-pi.sh               # packages, venv, groups, config, boot service,
#                                            # and the compiled rules core if it can be
#   bash scripts/install-pi.sh --no-service  # everything but the systemd unit
#   bash scripts/install-pi.sh --no-compiled # no compiled rules core (nor its C compiler)
#   bash scripts/install-pi.sh --input rfid  # tiles from the RFID tray, not the camera
#                                            # (the first config.toml's [input] kind)
#   bash scripts/install-pi.sh --dry-run     # print what would be done, change nothing
#   bash scripts/install-pi.sh --uninstall   # remove the boot service, its polkit rule and
#                                            # the companion command; saves and settings stay
#
# Safe to run again: it only adds what is missing and rewrites the unit file.
# `sh scripts/install-pi.sh` (dash) stopped at "set: Illegal option -o pipefail", naming no fix
# (a77setup NIT 8). $0 is the path as typed: run from another folder, "bash scripts/…" was
# no file there (r77setup).
[ -n "${BASH_VERSION:-}" ] || {
  echo "install-pi.sh: run it with bash: bash $0" >&2; exit 2; }
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$(pwd)
SERVICE=jongrogue-companion
# The System menu's Quit to console (companion/app/session/system_menu.py's CONSOLE_EXIT_STATUS).
CONSOLE_EXIT_STATUS=4
DRY_RUN=0
UNINSTALL=0
WITH_SERVICE=1
WITH_COMPILED=1
INPUT_KIND=camera
INPUT_GIVEN=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --no-service) WITH_SERVICE=0 ;;
    --no-compiled) WITH_COMPILED=0 ;;
    --input|--input=*)
      if [ "$1" = --input ]; then INPUT_KIND=${2-}; shift || true; else INPUT_KIND=${1#--input=}; fi
      INPUT_GIVEN=1
      case "$INPUT_KIND" in
        camera|rfid) ;;
        *) echo "install-pi.sh: --input takes camera or rfid, not '$INPUT_KIND'" >&2; exit 2 ;;
      esac ;;
    -h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "install-pi.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ "$UNINSTALL" = 1 ] && { [ "$WITH_SERVICE" = 0 ] || [ "$WITH_COMPILED" = 0 ] \
                             || [ "$INPUT_GIVEN" = 1 ]; }; then
  echo "install-pi.sh: --uninstall takes --dry-run alone" >&2
  exit 2
fi

# What the install writes outside this checkout and the player's home. INSTALL_PI_ROOT is
# the tests' stand-in for / (empty: the system's own); tests only: the systemctl calls are
# not redirected with it (the tests stand a systemctl in on PATH).
UNIT_FILE="${INSTALL_PI_ROOT:-}/etc/systemd/system/$SERVICE.service"
POLKIT_RULE="${INSTALL_PI_ROOT:-}/etc/polkit-1/rules.d/50-$SERVICE.rules"

PLAYER=${SUDO_USER:-$(id -un)}
if [ "$PLAYER" = root ] && [ "$UNINSTALL" = 1 ]; then
  # From a root login the service's own user is the player whose command is removed; with
  # the unit gone, the owner of this checkout (whose venv the command links to). Root is
  # no player: then none is known, and none is named.
  if [ -f "$UNIT_FILE" ]; then
    PLAYER=$(sed -n 's/^User=//p' "$UNIT_FILE" | tail -n 1)
  else
    PLAYER=$(stat -c %U "$REPO" 2>/dev/null || true)
  fi
  case "$PLAYER" in ''|root|UNKNOWN) PLAYER=root ;; esac
fi
if [ "$PLAYER" = root ] && [ "$UNINSTALL" = 0 ]; then
  # Logged in as root (su -, a root shell): the venv, the command and the service would all
  # be root's, and root's PATH never has ~/.local/bin. A dry run changes nothing: it shows
  # root's plan, saying so.
  if [ "$DRY_RUN" = 1 ]; then
    echo "install-pi.sh: dry run from a root login: a real install here stops, for it" \
         "must run as the user who will play (sudo is fine: sudo bash" \
         "scripts/install-pi.sh); the plan below is root's" >&2
  else
    echo "install-pi.sh: run this as the user who will play (sudo is fine: sudo bash" \
         "scripts/install-pi.sh), not from a root login" >&2
    exit 2
  fi
fi

# onnxruntime and OpenCV have wheels for 64-bit ARM (and x86-64) alone: on a 32-bit Raspberry
# Pi OS (armhf; `uname -m` may still say aarch64 there, its kernel being 64-bit) pip failed
# after the packages and the groups were changed. dpkg names the userland's architecture.
ARCH=$(dpkg --print-architecture 2>/dev/null || echo "unknown (no dpkg)")
if [ "$ARCH" != arm64 ] && [ "$UNINSTALL" = 0 ]; then  # an uninstall removes files alone
  if [ "$DRY_RUN" = 1 ] && [ "$ARCH" = amd64 ]; then
    # A PC's dry run shows the plan (and the tests read it); a real install stops here.
    echo "install-pi.sh: dry run on $ARCH: the plan a 64-bit Raspberry Pi OS (arm64) gets;" \
         "a real install here stops" >&2
  else
    echo "install-pi.sh: this needs 64-bit Raspberry Pi OS (arm64), and this system is" \
         "$ARCH: onnxruntime and OpenCV have no wheels for it. Flash Raspberry Pi OS (64-bit)" \
         "(Raspberry Pi Imager; Pi 3, 4, 5 and Zero 2 run it); nothing was changed" >&2
    exit 2
  fi
fi
PLAYER_HOME=$(getent passwd "$PLAYER" | cut -d: -f6)
VENV="$REPO/.venv"

# Debian packages:
#  python3-picamera2  the Pi camera stack (libcamera); apt-only, so the venv sees system packages;
#                     installed without its recommends, the desktop preview (Qt, OpenGL)
#  python3-lgpio      the GPIO backend gpiozero uses on bookworm (Pi 4 and Pi 5)
#  python3-pygame     pygame on the system's SDL, which draws with KMS/DRM (no desktop);
#                     pip's pygame brings an SDL without it (the screen stays black)
#  fonts-noto-cjk     Japanese glyphs for monster and item names on the screen
#  fontconfig         fc-match, which finds that font (fonts-noto-cjk does not bring it)
#  libgbm1 libdrm2 libegl1 libgles2  what SDL's KMS/DRM video driver needs (no desktop)
#  sqlite3            to look at the game history by hand, if you like
#  polkitd            lets the boot service power the Pi off (the System menu's Shut down)
PACKAGES=(python3-venv python3-pip python3-lgpio python3-pygame
          fonts-noto-cjk fontconfig libgbm1 libdrm2 libegl1 libgles2 sqlite3 polkitd)
# gpio: buttons, LED, buzzer; video and render: the camera and KMS/DRM;
# dialout: the RFID tray's USB serial port; input: the touch screen.
GROUPS_NEEDED=(gpio video render dialout input)

shell_word() {  # a word as a shell takes it back: quoted only when it must be (numpy<2)
  case $1 in
    '' | *[!A-Za-z0-9_@%+=:,./-]*) printf "'%s'" "${1//\'/\'\\\'\'}" ;;
    *) printf '%s' "$1" ;;
  esac
}

systemd_word() {  # a word of a unit's command line, quoted as systemd.service(5) reads it:
  local word=$1   # in double quotes, \ and " escaped, % and $ doubled (no specifier, no variable)
  word=${word//\\/\\\\}
  word=${word//\"/\\\"}
  word=${word//%/%%}
  word=${word//\$/\$\$}
  printf '"%s"' "$word"
}

run() {
  local word
  if [ "$DRY_RUN" = 1 ]; then  # each line as it could be pasted into a shell
    printf '+'
    for word in "$@"; do printf ' %s' "$(shell_word "$word")"; done
    printf '\n'
  else
    "$@"
  fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then run "$@"; else run sudo "$@"; fi
}

as_player() {  # run sudo bash install-pi.sh: the venv is still the player's, not root's
  if [ "$(id -u)" = 0 ] && [ "$PLAYER" != root ]; then run sudo -u "$PLAYER" "$@"; else run "$@"; fi
}

write_root_file() {  # write_root_file PATH < content
  local path=$1 content
  content=$(cat)
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ write %s:\n%s\n' "$path" "$content"
  elif [ "$(id -u)" = 0 ]; then
    printf '%s\n' "$content" > "$path"
  else
    printf '%s\n' "$content" | sudo tee "$path" >/dev/null
  fi
}

CONFIG_DIR="$PLAYER_HOME/.config/jongrogue-companion"
DATA_DIR="$PLAYER_HOME/.local/share/jongrogue-companion"
COMMAND_LINK="$PLAYER_HOME/.local/bin/companion"

uninstall() {
  local removed=removed player="$PLAYER" whose="$PLAYER's"
  if [ "$DRY_RUN" = 1 ]; then removed="would remove"; fi
  if [ "$PLAYER" = root ]; then player="the player" whose="the player's"; fi
  echo "== the boot service $SERVICE.service"
  if [ -f "$UNIT_FILE" ]; then
    # Stopped as by systemctl stop: a game being played is saved first (exit 130).
    as_root systemctl disable --now "$SERVICE.service" \
      || echo "   (systemctl could not stop and disable it; its unit is removed all the same)"
    as_root rm -f "$UNIT_FILE"
    as_root systemctl daemon-reload || true
    as_root systemctl reset-failed "$SERVICE.service" 2>/dev/null || true
    echo "   $removed $UNIT_FILE"
  else
    echo "   none ($UNIT_FILE is not there)"
  fi
  echo "== the polkit rule that let $player power the Pi off without a password"
  if [ -f "$POLKIT_RULE" ]; then
    as_root rm -f "$POLKIT_RULE"
    echo "   $removed $POLKIT_RULE"
  else
    echo "   none ($POLKIT_RULE is not there)"
  fi
  echo "== the companion command"
  if [ "$PLAYER" = root ]; then
    echo "   (no player known from a root login: remove ~/.local/bin/companion as the player)"
  elif [ -L "$COMMAND_LINK" ] && [ "$(readlink "$COMMAND_LINK")" = "$VENV/bin/companion" ]; then
    as_player rm -f "$COMMAND_LINK"
    echo "   $removed $COMMAND_LINK"
  elif [ -e "$COMMAND_LINK" ] || [ -L "$COMMAND_LINK" ]; then
    echo "   kept $COMMAND_LINK: it is not this checkout's companion"
  else
    echo "   none ($COMMAND_LINK is not there)"
  fi
  if [ "$PLAYER" = root ]; then  # root's own folders hold no saves of the player's
    echo "== kept: the saves and the game history in the player's"
    echo "   ~/.local/share/jongrogue-companion, and the settings and calibrations in their"
    echo "   ~/.config/jongrogue-companion (remove those folders to forget them);"
  else
    echo "== kept: the saves and the game history in $DATA_DIR, and the settings and"
    echo "   calibrations in $CONFIG_DIR (remove those folders to forget them);"
  fi
  echo "   this checkout and its venv ($VENV), the Debian packages and $whose groups"
  echo "   (removing the checkout removes the companion itself)"
}

if [ "$UNINSTALL" = 1 ]; then
  uninstall
  exit 0
fi

# From here on the install changes the system: a step that fails (no network for apt or pip,
# a full card) stops it under set -e with that step's own error, and this line after it.
# Ctrl-C, a kill or a closed SSH session stop it through the traps below, which give the
# EXIT trap their own status: without them bash ran it with the $? of whatever had finished
# last (1 from run's test, mid-step), and a Ctrl-C was told "the step above failed (exit 1;
# no network?)" (review64c DEFECT 1). A step killed by a signal (128 + its number) is
# interrupted as well.
# STEP_HINT: what most likely failed, for the line after it (a step that knows better sets it).
STEP_HINT="no network? a full card?"
stopped() {
  local status=$? what
  if [ "$status" = 0 ]; then return; fi
  what="stopped: the step above failed (exit $status; $STEP_HINT): mend what it"
  what+=" says, then run"
  if [ "$status" -gt 128 ]; then what="interrupted: to finish, run"; fi
  echo "install-pi.sh: $what bash scripts/install-pi.sh again; that is safe, and keeps your" \
       "settings, calibrations and saves" >&2
}
trap stopped EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

echo "== Debian packages"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  python3-picamera2

echo "== groups for $PLAYER"
GROUPS_PRESENT=()
for group in "${GROUPS_NEEDED[@]}"; do
  if getent group "$group" >/dev/null; then
    GROUPS_PRESENT+=("$group")
    if ! id -nG "$PLAYER" | tr ' ' '\n' | grep -qx "$group"; then
      as_root usermod -aG "$group" "$PLAYER"
    fi
  else
    echo "   (no group $group on this system, skipped)"
  fi
done

# Why $VENV is not a venv this script made on this system; nothing when it is, or when there
# is none. A checkout copied over from a PC brings the PC's .venv (setup69 DEFECT 1): venv
# over it kept its bin/python3 link to the PC's Python (pyenv's, Homebrew's: not on the Pi,
# and every run failed the same way), and pip kept each package whose version matched, an
# x86-64 onnxruntime and all, which the Pi cannot load. The stamp is written once this script
# has made the venv with Debian's Python on this architecture. A venv of Debian's Python
# without the stamp (an install-pi.sh older than the stamp made it) is kept, and stamped,
# when what the camera needs loads from it here: a PC's x86-64 wheels do not load on the Pi,
# and a good venv is not downloaded again, tens of MB over Wi-Fi (reviews69 RISK 1).
VENV_STAMP="$VENV/.made-by-install-pi-$ARCH"
foreign_venv() {
  local home
  if [ ! -e "$VENV" ] && [ ! -L "$VENV" ]; then return 0; fi
  home=$(sed -n 's/^home[[:space:]]*=[[:space:]]*//p' "$VENV/pyvenv.cfg" 2>/dev/null || true)
  if ! "$VENV/bin/python" -c '' >/dev/null 2>&1; then
    echo "its Python does not run here"
  elif [ "$home" != /usr/bin ]; then
    echo "its Python is ${home:-unknown} (pyvenv.cfg's home), not Debian's /usr/bin"
  elif [ ! -f "$VENV_STAMP" ] \
       && ! (cd / && "$VENV/bin/python" -I -B -c 'import onnxruntime, cv2') >/dev/null 2>&1; then
    # Run as root (sudo): -B writes no root-owned .pyc into the player's venv; -I and cd /
    # keep a cv2/ folder in the working one from answering the import.
    echo "install-pi.sh did not make it on this $ARCH system, and its onnxruntime or" \
         "OpenCV does not load here (another machine's, or a cut-short install)"
  fi
}

echo "== Python venv in $VENV"
# --system-site-packages: picamera2 and lgpio come from apt, everything else from pip.
# Run even over an existing venv this script made: it keeps the installed packages. Any
# other (one copied over with the checkout, bootstrap.sh's on a PC) is made again with
# --clear: its packages may be another machine's (foreign_venv says which are kept).
# Debian's own Python, which the apt packages are built for: another python3 first on PATH
# (pyenv's) sees none of them.
VENV_CLEAR=""
if why=$(foreign_venv) && [ -n "$why" ]; then
  echo "   this .venv was not made here by install-pi.sh ($why): making it again," \
       "without its packages (pip fetches them again)"
  VENV_CLEAR=--clear
  STEP_HINT="this .venv came from elsewhere: if the step names it, remove it: rm -rf $(shell_word "$VENV")"
fi
as_player /usr/bin/python3 -m venv --system-site-packages ${VENV_CLEAR:+"$VENV_CLEAR"} "$VENV"
STEP_HINT="no network? a full card?"
as_player touch "$VENV_STAMP"
as_player "$VENV/bin/python" -m pip install -q --upgrade pip
# Editable: the companion keeps using this checkout (its models/ folder, your edits).
# numpy<2: bookworm's picamera2 and simplejpeg are built for numpy 1.x, and a numpy 2 in
# the venv hides the system one ("numpy.dtype size changed" on import, picamera2 #1088);
# pip then takes an OpenCV that works with numpy 1.x (4.11). The constraints pin every
# package to the version the tests ran with on this set (scripts/pi-constraints.txt says how).
CONSTRAINTS=(-c "$REPO/scripts/pi-constraints.txt")
# env: sudo -u drops the environment. The filter hides setuptools' banner on an editable
# install of a flat layout, harmless and alarming on a first install.
as_player env "PYTHONWARNINGS=ignore:Editable installation" \
  "$VENV/bin/python" -m pip install -q "${CONSTRAINTS[@]}" -e "$REPO" "numpy<2"
# A pygame of the venv's own (one scripts/bootstrap.sh put there) would hide the system's.
if [ -d "$VENV/lib" ] && find "$VENV/lib" -maxdepth 3 -name 'pygame' -type d | grep -q .; then
  as_player "$VENV/bin/python" -m pip uninstall -y -q pygame
fi
# The venv's own packages the camera needs load on this Pi: a wheel of another machine's
# (an x86-64 onnxruntime pip kept in a venv copied over) failed at the first classify only.
if ! as_player "$VENV/bin/python" -c 'import onnxruntime, cv2'; then
  echo "   error: the venv's onnxruntime or OpenCV (cv2) does not load here (above)" >&2
  # Not stamped: the next run makes the venv afresh.
  as_player rm -f "$VENV_STAMP"
  STEP_HINT="a package built for another machine? running it again makes the venv afresh"
  exit 1
fi
# Compiled now, not by the first start: a slow Pi core took 6 to 7 s to compile every
# module for `companion --help` (pi59 F4), the boot service's first screen as long.
as_player "$VENV/bin/python" -m compileall -q "$REPO/companion"
# Said now, not by the service's first start: a system package the venv does not see.
if ! as_player "$VENV/bin/python" -c 'import importlib.util as u, sys; gone = [m for m in sys.argv[1:] if u.find_spec(m) is None]; gone and sys.exit("   warning: the venv does not see the system package(s) " + ", ".join(gone) + ": sudo apt install " + " ".join("python3-" + m for m in gone) + ", then bash scripts/install-pi.sh again")' \
    pygame lgpio picamera2; then
  echo "   (the screen, the buttons and the Pi camera need them at the table)"
fi

echo "== the companion command"
# Debian's and Raspberry Pi OS's ~/.profile put ~/.local/bin on the PATH once it exists (from
# the next login), so `companion …` works in any shell as the docs write it.
as_player mkdir -p "$PLAYER_HOME/.local/bin"
as_player ln -sfn "$VENV/bin/companion" "$COMMAND_LINK"

# Whether the config file $2's [input] section says kind = "$1" (or '$1').
input_kind_is() {
  awk -v kind="$1" '
    /^[[:space:]]*\[/ { in_input = ($0 ~ /^[[:space:]]*\[input\][[:space:]]*(#.*)?$/) }
    in_input && $0 ~ ("^[[:space:]]*kind[[:space:]]*=[[:space:]]*[\"\047]" kind "[\"\047]") {
      found = 1
    }
    END { exit !found }' "$2"
}

echo "== config"
KIND_TO_SET=""  # the closing steps' first, when a kept config.toml reads another input
# An earlier version of this script, run with sudo, left ~/.config owned by root, and
# the player's other programs could not write their settings there: give it back.
if [ "$PLAYER" != root ] && [ -d "$PLAYER_HOME/.config" ] \
    && [ "$(stat -c %U "$PLAYER_HOME/.config")" = root ]; then
  as_root chown "$PLAYER:" "$PLAYER_HOME/.config"
fi
if [ -f "$CONFIG_DIR/config.toml" ]; then
  echo "   keeping $CONFIG_DIR/config.toml"
  if ! grep -q '^shutdown_command' "$CONFIG_DIR/config.toml"; then
    echo "   (for the System menu's Shut down, add under [play]: shutdown_command = \"systemctl poweroff\")"
  fi
  # Run again without --input (after an update): the closing steps follow the input the
  # kept file reads, not the default camera's (setup64 DEFECT 1).
  if [ "$INPUT_GIVEN" = 0 ] && input_kind_is rfid "$CONFIG_DIR/config.toml"; then
    INPUT_KIND=rfid
  fi
  # The player's file is never rewritten: say where --input goes, unless it is there (and
  # again first in the closing steps, which this line is far above).
  if [ "$INPUT_GIVEN" = 1 ] && ! input_kind_is "$INPUT_KIND" "$CONFIG_DIR/config.toml"; then
    KIND_TO_SET="set [input] kind = \"$INPUT_KIND\" in $CONFIG_DIR/config.toml"
    echo "   (--input $INPUT_KIND is not written into it: set it there under [input]:" \
         "kind = \"$INPUT_KIND\"; companion config --show shows input.kind)"
  fi
else
  # As the player: a folder root made (~/.config on a fresh image) would stay root's.
  as_player mkdir -p "$CONFIG_DIR"
  CONFIG_TOML=$(cat <<TOML
# JongRogue Companion on the Pi. Every setting and its default:
#   companion config --show
[input]
kind = "$INPUT_KIND"    # "camera", or "rfid" for the RFID tray (install-pi.sh --input)

[choices]
kind = "gpio"      # the four buttons (see hardware/wiring.md)

[display]
kind = "screen"
fullscreen = true

[play]
shutdown_command = "systemctl poweroff"  # the System menu's Shut down (hold item)
TOML
)
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ write %s:\n%s\n' "$CONFIG_DIR/config.toml" "$CONFIG_TOML"
  else
    printf '%s\n' "$CONFIG_TOML" | as_player tee "$CONFIG_DIR/config.toml" >/dev/null
  fi
fi

if [ "$WITH_SERVICE" = 1 ]; then
  echo "== systemd unit $SERVICE.service (starts at boot, restarts when it stops)"
  write_root_file "$UNIT_FILE" <<UNIT
[Unit]
Description=JongRogue Companion (雀ローグEZプラス at the table)
After=systemd-user-sessions.service
# Restarts are bounded: 10 starts in 5 minutes, then the unit stays failed (see the journal;
# after fixing it: sudo systemctl reset-failed $SERVICE && sudo systemctl start $SERVICE).
# An error shown on the screen holds it up to a minute before the next start, and at least
# 30 s from the start when a button is pressed through it (the screen then says it starts
# again shortly): 10 take over 5 minutes, and never trip this. A crash once the screen is
# open (a slow Pi's models loaded and then a crash included) is shown and held like such an
# error, never tripping this. A stop within ~25 s of each start before the screen opens (a
# traceback in the journal, a setting refused before it) comes back 10 times in 5 minutes and
# stops here. A crash later in a game is started again and resumes it, however often: no
# start limit tells it from a game going on. A save whose replay meets a fault of the
# companion's is kept aside by it; any other replay error keeps the save and is shown on the
# screen at every start, whose System menu (Shut down, another mode, Quit to console) is the
# way out. A save another companion holds (a game in a terminal) is waited for, on the
# screen, not restarted.
StartLimitIntervalSec=300
StartLimitBurst=10

[Service]
Type=simple
User=$PLAYER
SupplementaryGroups=${GROUPS_PRESENT[*]}
WorkingDirectory=$PLAYER_HOME
# Draw straight to the screen with KMS/DRM: no desktop needed.
Environment=SDL_VIDEODRIVER=kmsdrm
Environment=PYTHONUNBUFFERED=1
# What it says goes to the journal in UTF-8 whatever the system's locale (raspi-config's,
# for the console): Japanese kept, and no line journalctl shows as "[blob data]".
Environment=PYTHONUTF8=1
# No usage events from onnxruntime (the camera's models) to Microsoft, no device id and
# event database under ~/.cache/Microsoft (companion/__init__.py sets it as well).
Environment=ORT_DISABLE_TELEMETRY=1
# The System menu offers Quit to console under this service alone (its own name, for what it
# says): a player with a screen and a keyboard has no other way to the console.
Environment=COMPANION_SERVICE=$SERVICE
# --resume carries on a game cut short by a power cut, or starts a new one.
ExecStart=$(systemd_word "$VENV/bin/companion") play --resume
# A finished game exits; the next one starts. A crash restarts it too, within the limit
# above. Exit 2 (a setting or file the player gave) is restarted as well: with the screen
# open it is shown there for a minute, again after each start, and a fixed one is taken up.
Restart=always
RestartSec=3
# systemctl stop: the companion saves and exits 130, as after Ctrl-C; that is no failure.
# The System menu's Quit to console exits $CONSOLE_EXIT_STATUS: no failure either, and not started again
# (sudo systemctl start $SERVICE, or a reboot, does).
SuccessExitStatus=130 $CONSOLE_EXIT_STATUS
RestartPreventExitStatus=$CONSOLE_EXIT_STATUS

[Install]
WantedBy=multi-user.target
UNIT
  echo "== polkit rule: the service's user may power the Pi off (the System menu's Shut down)"
  write_root_file "$POLKIT_RULE" <<RULES
// Written by scripts/install-pi.sh: the boot service runs in no login session, and logind
// lets only a session's user power off without a password.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "$PLAYER") {
        return polkit.Result.YES;
    }
});
RULES
  as_root systemctl daemon-reload
  as_root systemctl enable "$SERVICE.service"
  if systemctl is-active -q "$SERVICE.service" 2>/dev/null; then  # no systemd: not active
    as_root systemctl restart "$SERVICE.service"  # it runs this install from now on
    echo "   restarted it"
  else
    echo "   start it now with: sudo systemctl start $SERVICE"
  fi
  echo "   follow it with:    journalctl -u $SERVICE -f"
  # The service draws with KMS/DRM, which a desktop holding the screen refuses it.
  if [ "$(systemctl get-default 2>/dev/null)" = graphical.target ]; then
    echo "   warning: this Pi boots to a desktop, which keeps the screen from the companion;"
    echo "   make it boot to the console: sudo raspi-config nonint do_boot_behaviour B1 && sudo reboot"
  fi
elif [ -f "$UNIT_FILE" ]; then
  # Left as it is: a re-run for the packages alone must not take the table's service away;
  # its polkit rule stays with it, which its System menu's Shut down needs.
  echo "== the boot service $SERVICE.service from an earlier install is still there, with"
  echo "   the polkit rule that lets $PLAYER power the Pi off without a password; remove"
  echo "   both with: sudo systemctl disable --now $SERVICE && sudo rm $UNIT_FILE" \
       "$POLKIT_RULE && sudo systemctl daemon-reload"
elif [ -f "$POLKIT_RULE" ]; then
  # The service is gone, and only it needs the rule (a console login may power off by
  # itself): it would go on letting $PLAYER power off from anywhere, SSH too.
  echo "== the polkit rule of a boot service since removed (it let $PLAYER power the Pi off"
  echo "   without a password, from SSH too)"
  as_root rm -f "$POLKIT_RULE"
  echo "   removed $POLKIT_RULE"
fi

if [ "$WITH_COMPILED" = 1 ]; then
  # Last, and optional: the rules core compiled with mypyc (scripts/build_compiled.py) is
  # several times faster, which `companion simulate` feels and play at the table does not.
  # It needs a C compiler, Python's headers and mypy, a build of several minutes on a Pi
  # and ~0.5 GB of memory at its peak (463 MB on x86): too much beside the running service
  # on a 1 GB Pi 3. Whatever fails here, the install stands and the pure core is used.
  echo "== the compiled rules core (optional; the game plays the same without it)"
  PAGES=$(getconf _PHYS_PAGES 2>/dev/null || echo 0)
  PAGE_SIZE=$(getconf PAGE_SIZE 2>/dev/null || echo 0)
  MEMORY_MB=$(( PAGES * PAGE_SIZE / 1048576 ))
  if [ "$MEMORY_MB" -lt 1500 ]; then
    echo "   skipped: building it takes ~0.5 GB of memory, and this system has $MEMORY_MB MB;"
    echo "   the pure Python rules core is used (only 'companion simulate' is slower)"
  else
    echo "   a C compiler, Python's headers and mypy, then a build of several minutes;"
    echo "   the service uses the build from its next start"
    # build_compiled.py itself says whether it built, and exits 0 when it could not.
    if ! { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev \
             python3-dev \
           && as_player "$VENV/bin/python" -m pip install -q "${CONSTRAINTS[@]}" mypy setuptools \
           && as_player "$VENV/bin/python" "$REPO/scripts/build_compiled.py"; }; then
      echo "   not built (see above): the pure Python rules core is used, which plays the same;"
      echo "   try again later with: bash scripts/install-pi.sh"
    fi
  fi
fi

echo "== done. Log out and back in (or reboot) so the new groups apply and the"
echo "   companion command is on your PATH."
# Next, in order. The service holds the camera and the tray's port while it runs:
# calibrating (and flashing the tray, whose port mpremote opens alone) needs them. One an
# earlier install left (kept by --no-service) holds them as well (setup64 NIT 5), unless the
# maker turned it off (systemctl disable --now): then there is nothing to stop or start
# (review64c NIT 5).
SERVICE_THERE=$WITH_SERVICE
if [ "$WITH_SERVICE" = 0 ] && [ -f "$UNIT_FILE" ] \
    && { systemctl is-enabled -q "$SERVICE.service" 2>/dev/null \
         || systemctl is-active -q "$SERVICE.service" 2>/dev/null; }; then
  SERVICE_THERE=1
fi
STEPS=()
if [ -n "$KIND_TO_SET" ]; then STEPS+=("$KIND_TO_SET"); fi
if [ "$INPUT_KIND" = camera ]; then STEPS+=("print the mat (docs/mat.pdf)"); fi
if [ "$SERVICE_THERE" = 1 ]; then
  STEPS+=("sudo systemctl stop $SERVICE (or the System menu's Quit to console)")
fi
if [ "$INPUT_KIND" = rfid ]; then
  echo "   The RFID tray, in this order (hardware/README.md):"
  STEPS+=("flash the tray (firmware/README.md)" "companion calibrate rfid")
else
  echo "   The camera, in this order (hardware/camera.md):"
  # The dice tray's own calibration, which the docs list after the camera's (cal66 N3).
  STEPS+=("companion calibrate camera"
          "companion calibrate dice (for the dice tray: dice in the mat's dice area)")
fi
if [ "$SERVICE_THERE" = 1 ]; then STEPS+=("sudo systemctl start $SERVICE"); fi
for i in "${!STEPS[@]}"; do
  echo "   $((i + 1)). ${STEPS[$i]}"
done
if [ "$INPUT_KIND" = rfid ]; then
  # The RDM6300 variant has no firmware, and a kind to set (reviewr69 NIT 5).
  # config.toml named with its folder, as the step above does (reviewr69b NIT 4).
  echo "   An RDM6300 instead of the tray (hardware/README.md, the RDM6300 build):"
  echo "   skip the flashing, and before calibrating put rfid_kind = \"rdm6300\" (and"
  echo "   rfid_port = \"/dev/ttyAMA0\" on a Pi 5) under [input] in"
  echo "   $CONFIG_DIR/config.toml"
fi

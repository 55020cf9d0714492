#!/usr/bin/env bash
# Set up .venv with the companion and its test tools, on a fresh Debian with Python 3.11
# or newer. Safe to run again: it only installs what is missing, and makes .venv again when
# it cannot be used (no pip, an older Python, or made for a checkout that has moved since),
# unless scripts/install-pi.sh made it: that is run again instead.
# `sh scripts/bootstrap.sh` (dash) stopped at "set: Illegal option -o pipefail", naming no fix
# (a77setup NIT 8). $0 is the path as typed: run from another folder, "bash scripts/…" was
# no file there (r77setup).
[ -n "${BASH_VERSION:-}" ] || {
  echo "bootstrap.sh: run it with bash: bash $0" >&2; exit 2; }
set -euo pipefail

stop() {  # the line that says what to do, and out
  echo "bootstrap.sh: $*" >&2
  exit 1
}

# It takes no options: --help says what it does, anything else is refused. `--help` ran the
# whole setup, a few minutes (audit scripts68 N1).
case "${1-}" in
  -h | --help) sed -n '2,5s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "bootstrap.sh: unknown option $1: it takes none (--help says what it does)" >&2
     exit 2 ;;  # a usage error, as install-pi.sh's
esac

cd "$(dirname "$0")/.."
REPO=$(pwd -P)

# Ctrl-C (or a kill, a closed SSH session) anywhere: every step is taken up again by the next
# run. pip catches Ctrl-C and exits 1, which the `|| stop` after it took for no network
# (review64c NIT 6): bash runs this trap as soon as pip returns, before that.
interrupted() {  # interrupted STATUS
  trap - INT TERM HUP
  echo "bootstrap.sh: interrupted: run bash scripts/bootstrap.sh again to finish; that is" \
       "safe, and carries on from where it stopped" >&2
  exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
trap 'interrupted 129' HUP

new_enough() {  # new_enough PYTHON: whether it runs, and is Python 3.11 or newer
  "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

version_of() {  # version_of PYTHON
  "$1" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null \
    || echo "a Python that does not run"
}

# Why .venv cannot be used as it is; nothing when it can. Each was a dead end before:
# - no pip: its making was cut short (ensurepip is the slow step), or python3-venv was
#   missing when it was made; every later run said "No module named pip";
# - an older Python: pip refused the companion on every run, a newer python3 or not;
# - another folder: the checkout was moved or copied, and the venv's companion (its editable
#   install, its scripts' #! lines) is the old folder's, or nothing.
unusable() {
  if [ ! -x .venv/bin/python ]; then
    echo "it has no Python (its making was cut short)"
  elif ! new_enough .venv/bin/python; then
    echo "its Python is $(version_of .venv/bin/python), not 3.11 or newer"
  elif ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    echo "it has no pip (its making was cut short, or python3-venv was missing then)"
  elif compgen -G '.venv/.installed-*' >/dev/null && ! (cd / && "$REPO/.venv/bin/python" -I -c '
import importlib.util, pathlib, sys
found = importlib.util.find_spec("companion")  # found, not run: a bad edit is no move
sys.exit(found is None or found.origin is None
         or pathlib.Path(found.origin).resolve().parents[1] != pathlib.Path(sys.argv[1]))
' "$REPO") >/dev/null 2>&1; then
    echo "its companion is not this folder's (the checkout was moved or copied since)"
  fi
}

make_venv() {  # make_venv [venv's options]
  command -v python3 >/dev/null \
    || stop "needs Python 3.11 or newer as python3, and there is none: sudo apt install python3 python3-venv"
  new_enough python3 \
    || stop "needs Python 3.11 or newer, and python3 is $(version_of python3): put a newer" \
            "python3 first on PATH (Debian 12 has 3.11) and run this again"
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    # Debian splits venv out of python3; install it when we may.
    echo "installing python3-venv (Debian keeps Python's venv apart)"
    if [ "$(id -u)" = 0 ]; then
      { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; } \
        || stop "could not install python3-venv (above): apt install python3-venv as root, then run this again"
    else
      { sudo apt-get update -qq && sudo apt-get install -y -qq python3-venv >/dev/null; } \
        || stop "could not install python3-venv (above): sudo apt install python3-venv (or as root:" \
                "apt install python3-venv), then run this again"
    fi
  fi
  python3 -m venv "$@" .venv \
    || stop "python3 -m venv failed (above): mend what it says, then run this again"
}

if [ ! -e .venv ]; then
  make_venv
elif why=$(unusable) && [ -n "$why" ]; then
  # One scripts/install-pi.sh made sees the system's packages (the Pi's camera and GPIO) and
  # is made again by it alone (review58a R-2): a plain pip install here took numpy 2, which
  # bookworm's picamera2 cannot import, where install-pi.sh pins numpy<2 and every package
  # (scripts/pi-constraints.txt), with Debian's own Python; and a moved checkout needs it
  # anyway, for the boot service names the old folder.
  if grep -qx 'include-system-site-packages = true' .venv/pyvenv.cfg 2>/dev/null; then
    stop ".venv cannot be used: $why. It is scripts/install-pi.sh's (it sees the system's" \
         "packages): run \`bash scripts/install-pi.sh\` again, which makes it with the Pi's" \
         "pins (numpy<2 for the camera) and points the boot service at this folder; not on" \
         "a Pi, remove .venv and run this again"
  fi
  echo "bootstrap.sh: .venv cannot be used: $why; making it again"
  make_venv --clear
fi
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "installing the companion and its test tools into .venv (a few minutes)"
  # A failure here (no network, a full disk) changed nothing it cannot take up again.
  again="fix that and run bash scripts/bootstrap.sh again: that is safe, and carries on from here"
  .venv/bin/python -m pip install -q --upgrade pip \
    || stop "pip could not upgrade itself in .venv (above; no network?): $again"
  # Without the filter setuptools prints a banner of asterisks to a first-time user (its
  # notice for an editable install of a flat layout), harmless but alarming (setup66 NIT 4);
  # a PYTHONWARNINGS of the user's own is kept, this filter after it.
  PYTHONWARNINGS="${PYTHONWARNINGS:+$PYTHONWARNINGS,}ignore:Editable installation" \
    .venv/bin/python -m pip install -q -e '.[test]' \
    || stop "pip could not install the companion into .venv (above; no network?): $again"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
# The compiled rules core (mypyc): several times faster where a C compiler is at hand;
# without one it says so, exits 0, and the pure Python rules core is used. Any other exit
# is a fault, not to be passed over as a success.
.venv/bin/python scripts/build_compiled.py \
  || stop "scripts/build_compiled.py failed (above)"

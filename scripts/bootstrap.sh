#!/usr/bin/env bash
# Set up .venv with the companion and its test tools, on a fresh Debian with Python 3.11.
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    # Debian splits venv out of python3; install it when we may.
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    else
      sudo apt-get update -qq && sudo apt-get install -y -qq python3-venv >/dev/null
    fi
  fi
  python3 -m venv .venv
fi
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "installing the companion and its test tools into .venv (a minute or two)"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi
# The compiled rules core (mypyc): several times faster where a C compiler is at hand;
# without one it says so and the pure Python rules core is used.
.venv/bin/python scripts/build_compiled.py || true

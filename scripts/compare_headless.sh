#!/usr/bin/env bash
# Headless games at two revisions, compared byte for byte: their --log files (the random
# game_id aside) and what they print. For a change that must not change a game, e.g.
#   bash scripts/compare_headless.sh 29c1568~1 HEAD
# Seeds 1, 7, 193 and 4242, presets ez and plus, strategies cautious and reckless.
# Prints one line per game that differs, then how many were compared; exits 1 on a difference.
set -euo pipefail
# No arguments ended in "$1: unbound variable", --help in git's usage (audit scripts68 N2).
usage() {
  echo "usage: bash scripts/compare_headless.sh REVISION_A REVISION_B"
  sed -n '2,6s/^# \{0,1\}//p' "$0"
}
case "${1-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 2 ] || { usage >&2; exit 2; }
cd "$(dirname "$0")/.."
# the venv of this checkout, or of the main one when run from a worktree (it has none)
python=$PWD/.venv/bin/python
if [ ! -x "$python" ]; then
  python=$(git rev-parse --path-format=absolute --git-common-dir)/../.venv/bin/python
fi
[ -x "$python" ] || { echo "compare_headless.sh: no .venv: run bash scripts/bootstrap.sh" >&2; exit 2; }
work=$(mktemp -d)
trap 'git worktree remove --force "$work/a" >/dev/null 2>&1 || true;
      git worktree remove --force "$work/b" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/a" "$1"
git worktree add -q --detach "$work/b" "$2"
differ=0 games=0
for seed in 1 7 193 4242; do
  for preset in ez plus; do
    for strategy in cautious reckless; do
      name=${seed}_${preset}_${strategy}
      for side in a b; do
        (cd "$work/$side" && COMPANION_RULES_BUILD=pure PYTHONPATH="$work/$side" \
          COMPANION_DATA_DIR="$work/data_$side" COMPANION_CONFIG_DIR="$work/config_$side" \
          "$python" -m companion play --headless --seed "$seed" --preset "$preset" \
          --strategy "$strategy" --log "$work/$side.$name.jsonl" >"$work/$side.$name.txt" 2>&1)
        sed -i 's/"game_id": "[0-9a-f]*"//' "$work/$side.$name.jsonl"
        # Who plays and what to do next (since newuser55 #6): words around the game, not it.
        sed -i '/^The auto-player chooses every move/d; /^To play one yourself:/d' \
          "$work/$side.$name.txt"
      done
      games=$((games + 1))
      if ! cmp -s "$work/a.$name.jsonl" "$work/b.$name.jsonl" \
          || ! cmp -s "$work/a.$name.txt" "$work/b.$name.txt"; then
        echo "differs: seed $seed, --preset $preset, --strategy $strategy"
        diff "$work/a.$name.txt" "$work/b.$name.txt" | head -5 || true
        differ=1
      fi
    done
  done
done
echo "$games headless games compared between $1 and $2"
exit $differ

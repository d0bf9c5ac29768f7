#!/usr/bin/env bash
# Regenerates tests/fixtures/sim/describe/: for each STATE/ folder there, runs the
# simulator on STATE/state.sim (capture.py -> STATE/objects.json), then runs the real
# kubectl (v1.32) on each line of STATE/cases.tsv against fake_apiserver.py serving those
# objects (render.sh -> STATE/NAME.txt, exact bytes of stdout+stderr), and writes each
# case's exit status to STATE/exit-codes.tsv.
#
#   tests/oracle/regen.sh [KUBEDRILL_BINARY]     (default: target/release/kubedrill)
#
# Needs python3 and kubectl on PATH; starts no process that outlives it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-$root/target/release/kubedrill}
version=$(kubectl version --client 2>/dev/null || true)
case "$version" in
  "Client Version: v1.32."*) ;;
  *) echo "regen.sh: needs kubectl v1.32 on PATH (found: ${version%%$'\n'*})" >&2; exit 1 ;;
esac
for dir in "$root"/tests/fixtures/sim/describe/*/; do
  dir=${dir%/}
  [ -f "$dir/state.sim" ] || continue
  echo "== $(basename "$dir")" >&2
  python3 "$here/capture.py" "$bin" "$dir/state.sim" "$dir/objects.json"
  : > "$dir/exit-codes.tsv"
  while IFS=$'\t' read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086 # the arguments are split on spaces on purpose
    set +e
    "$here/render.sh" "$dir/objects.json" $args > "$dir/$name.txt"
    rc=$?
    set -e
    printf '%s\t%s\n' "$name" "$rc" >> "$dir/exit-codes.tsv"
    echo "   $name (exit $rc)" >&2
  done < "$dir/cases.tsv"
done

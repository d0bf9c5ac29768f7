#!/usr/bin/env bash
# Regenerates tests/fixtures/sim/describe/: for each STATE/ folder there, runs the
# simulator on STATE/state.sim (capture.py -> STATE/objects.json), then runs the real
# kubectl (v1.32) on each line of STATE/cases.tsv against fake_apiserver.py serving those
# objects (render.sh -> STATE/NAME.txt, exact bytes of stdout+stderr), and writes each
# case's exit status to STATE/exit-codes.tsv. A case with STATE/NAME.reply.json is a write:
# the fake server answers it with that reply (a Status written from the apiserver 1.32
# source, or the object with Warning headers), which checks how kubectl wraps and prints
# what the server said. kubectl runs in a folder holding the scenario's manifests.
#
#   tests/oracle/regen.sh [KUBEDRILL_BINARY]     (default: target/release/kubedrill)
#   ONLY=operator tests/oracle/regen.sh          (one state folder)
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
for dir in "$root"/tests/fixtures/sim/describe/${ONLY:-*}/; do
  dir=${dir%/}
  [ -f "$dir/state.sim" ] || continue
  echo "== $(basename "$dir")" >&2
  python3 "$here/capture.py" "$bin" "$dir/state.sim" "$dir/objects.json"
  # The scenario's manifests beside kubectl, for cases that read one with -f.
  scenario=$(sed -n 's/^# scenario: //p' "$dir/state.sim")
  work=$(mktemp -d)
  for f in $(echo files | "$bin" sim "$scenario"); do
    echo "cat $f" | "$bin" sim "$scenario" > "$work/$f"
  done
  : > "$dir/exit-codes.tsv"
  while IFS=$'\t' read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    # A case with NAME.reply.json writes: the server answers its write with that reply.
    served=$dir/objects.json
    if [ -f "$dir/$name.reply.json" ]; then
      served=$work/$name.json
      python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["reply"] = json.load(open(sys.argv[2])); json.dump(d, open(sys.argv[3], "w"))' \
        "$dir/objects.json" "$dir/$name.reply.json" "$served"
    fi
    # shellcheck disable=SC2086 # the arguments are split on spaces on purpose
    set +e
    (cd "$work" && "$here/render.sh" "$served" $args) > "$dir/$name.txt"
    rc=$?
    set -e
    printf '%s\t%s\n' "$name" "$rc" >> "$dir/exit-codes.tsv"
    echo "   $name (exit $rc)" >&2
  done < "$dir/cases.tsv"
  rm -rf "$work"
done

#!/usr/bin/env bash
# Runs the real kubectl against fake_apiserver.py serving OBJECTS.json and prints
# kubectl's stdout and stderr (interleaved, as a terminal shows them).
#
#   render.sh OBJECTS.json [kubectl args...]     e.g. render.sh objs.json describe rs web-1
#
# The server binds 127.0.0.1 on a port the kernel picks and is killed before this
# script exits (it also exits by itself after 120 s). kubectl gets a kubeconfig and a
# discovery cache of its own in a temporary folder, removed at exit.
# kubectl computes describe's event ages from the wall clock; the server serves those
# timestamps moved so they read as of the file's simNow, which holds only if kubectl
# finishes within a second of the server's start: a slower run is retried (5 tries).
# Exit status: kubectl's. Set ORACLE_LOG=FILE to append the server's request log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
objects=${1:?usage: render.sh OBJECTS.json [kubectl args...]}
shift
tmp=$(mktemp -d)
srv_pid=
stop_server() {
  if [ -n "$srv_pid" ]; then
    kill "$srv_pid" 2>/dev/null
    wait "$srv_pid" 2>/dev/null
    srv_pid=
  fi
}
cleanup() { stop_server; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

rc=1
for attempt in 1 2 3 4 5; do
  rm -f "$tmp/port" "$tmp/base"
  python3 "$here/fake_apiserver.py" "$objects" --port-file "$tmp/port" --base-file "$tmp/base" \
    ${ORACLE_LOG:+--log "$ORACLE_LOG"} &
  srv_pid=$!
  for _ in $(seq 1 200); do
    [ -s "$tmp/port" ] && break
    if ! kill -0 "$srv_pid" 2>/dev/null; then echo "render.sh: fake_apiserver.py died" >&2; exit 1; fi
    sleep 0.05
  done
  [ -s "$tmp/port" ] || { echo "render.sh: fake_apiserver.py did not start" >&2; exit 1; }
  "$here/kubeconfig.sh" "$(cat "$tmp/port")" > "$tmp/kubeconfig"
  KUBECONFIG="$tmp/kubeconfig" KUBECACHEDIR="$tmp/cache" HOME="$tmp" kubectl "$@" > "$tmp/out" 2>&1
  rc=$?
  end=$(date +%s.%N)
  stop_server
  if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) - float(sys.argv[2]) < 0.95 else 1)' \
      "$end" "$(cat "$tmp/base")"; then
    break
  fi
  echo "render.sh: kubectl took a second or more (try $attempt); retrying" >&2
done
cat "$tmp/out"
exit "$rc"

#!/usr/bin/env python3
"""Spawn-to-first-frame in tmux, the way a person starts the app: kubedrill against a
`printf` floor (and vocage, when given), interleaved round by round, medians printed.

    python3 benches/startup.py [--rounds 15] [--kubedrill target/release/kubedrill]
                               [--baseline OTHER_KUBEDRILL] [--deck DIR] [--vocage PATH]

Each case runs in a fresh 120x40 tmux window on a private tmux server; the time is from
just before the spawn to the first capture of the pane that shows the case's marker (the
home screen's "Topics" panel for kubedrill). Polling the pane costs a few milliseconds,
the same for every case: the `printf` floor measures exactly that overhead, so compare
cases with each other and with the floor, not with zero.

Cases:
  floor             printf a marker (spawn + polling overhead)
  fresh             kubedrill, shipped content, a data folder that does not exist yet
  existing          kubedrill, shipped content, a data folder with a progress.db in it
  deck-fresh        kubedrill --content DIR (--deck), fresh data folder
  base-fresh,       the same two with another kubedrill binary (--baseline), say one
  base-existing     built from an earlier commit, to measure a change in one run
  vocage            vocage on a generated 10,000-card TSV deck (--vocage; build it with
                    `cargo install vocage --version 1.1.0 --locked --root DIR`)

Builds nothing: the kubedrill binary must exist (`cargo build --release --offline`).
Not run by CI; a measurement, not a test. Every tmux session it starts is killed before
it exits.
"""

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

SOCKET = f"kdbench-{os.getpid()}"
WIDTH, HEIGHT = 120, 40
TIMEOUT_S = 10.0


def tmux(*args, check=True):
    return subprocess.run(
        ["tmux", "-L", SOCKET, *args],
        capture_output=True,
        text=True,
        check=check,
    )


def peak_rss_kib(name):
    """VmHWM of the pane's process (the command runs under `exec`, so it is the pane's)."""
    pid = tmux("display-message", "-p", "-t", name, "#{pane_pid}", check=False).stdout.strip()
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def first_frame(name, command, marker):
    """Seconds from spawning `command` in a new session to its pane showing `marker`, and
    the process's peak RSS (KiB) at that moment."""
    start = time.perf_counter()
    tmux("new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT), "exec " + command)
    try:
        while True:
            out = tmux("capture-pane", "-p", "-t", name, check=False).stdout
            if marker in out:
                took = time.perf_counter() - start
                return took, peak_rss_kib(name)
            if time.perf_counter() - start > TIMEOUT_S:
                raise RuntimeError(f"{name}: no {marker!r} after {TIMEOUT_S}s:\n{out}")
    finally:
        tmux("kill-session", "-t", name, check=False)


def vocage_deck(folder, cards=10_000):
    path = os.path.join(folder, "vocage-10k.tsv")
    with open(path, "w", encoding="utf-8") as f:
        f.write("#front\tback\n")
        for i in range(cards):
            f.write(f"term {i}\tthe meaning of term {i}, in a few words\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--kubedrill", default="target/release/kubedrill")
    ap.add_argument("--baseline", help="another kubedrill binary to run beside it")
    ap.add_argument("--deck", help="a content folder for the deck-fresh case")
    ap.add_argument("--vocage", default=os.environ.get("VOCAGE"))
    args = ap.parse_args()

    binary = os.path.abspath(args.kubedrill)
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: not built (cargo build --release --offline)")
    work = tempfile.mkdtemp(prefix="kdbench-")
    existing = os.path.join(work, "existing")
    # A progress.db made the way a user makes one: the app run once.
    subprocess.run(
        [binary, "--data-dir", existing, "stats"], capture_output=True, check=False
    )
    q = shlex.quote
    cases = {
        "floor": (f"sh -c \"printf 'floor-ready\\n'; sleep {TIMEOUT_S}\"", "floor-ready"),
        "existing": (f"{q(binary)} --data-dir {q(existing)}", "Topics"),
    }
    fresh_n = [0]

    def fresh(extra=""):
        fresh_n[0] += 1
        d = os.path.join(work, f"fresh-{fresh_n[0]}")
        return f"{q(binary)} --data-dir {q(d)} {extra}"

    if args.baseline:
        base = os.path.abspath(args.baseline)
        base_existing = os.path.join(work, "base-existing")
        subprocess.run(
            [base, "--data-dir", base_existing, "stats"], capture_output=True, check=False
        )
        cases["base-fresh"] = (None, "Topics")
        cases["base-existing"] = (f"{q(base)} --data-dir {q(base_existing)}", "Topics")
    if args.deck:
        cases["deck-fresh"] = (None, "Topics")
    if args.vocage:
        deck = vocage_deck(work)
        cases["vocage"] = (f"{q(args.vocage)} {q(deck)}", "Use: q to quit")

    # A keep-alive session, so no case pays for starting the tmux server.
    tmux("new-session", "-d", "-s", "keep", "-x", "20", "-y", "5", "sleep 3600")
    times = {name: [] for name in ["floor", "fresh", *[c for c in cases if c != "floor"]]}
    rss = {name: [] for name in times}
    try:
        for r in range(args.rounds):
            for name in times:
                if name == "fresh":
                    command, marker = fresh(), "Topics"
                elif name == "deck-fresh":
                    command, marker = fresh(f"--content {q(args.deck)}"), "Topics"
                elif name == "base-fresh":
                    d = os.path.join(work, f"base-fresh-{r}")
                    command, marker = f"{q(base)} --data-dir {q(d)}", "Topics"
                else:
                    command, marker = cases[name]
                took, peak = first_frame(f"{name}-{r}", command, marker)
                times[name].append(took)
                if peak is not None:
                    rss[name].append(peak)
    finally:
        tmux("kill-server", check=False)
    floor = statistics.median(times["floor"]) * 1000
    print(f"spawn to first frame in tmux, {WIDTH}x{HEIGHT}, {args.rounds} interleaved rounds")
    print(
        f"{'case':<12} {'median':>9} {'min':>9} {'max':>9} {'over floor':>11} "
        f"{'peak RSS at first frame':>24}"
    )
    for name, ts in times.items():
        ms = [t * 1000 for t in ts]
        med = statistics.median(ms)
        peak = (
            f"{statistics.median(rss[name]) / 1024:.1f} MiB (median)"
            if rss[name] and name != "floor"
            else ""
        )
        print(
            f"{name:<12} {med:>7.1f}ms {min(ms):>7.1f}ms {max(ms):>7.1f}ms "
            f"{med - floor:>9.1f}ms {peak:>24}"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Spawn-to-first-frame in tmux, the way a person starts the app: kubedrill against a
`printf` floor and the peers (vocage, carddown), interleaved round by round, medians
printed; then `kubedrill check` against `hashcards check` per byte.

    python3 benches/startup.py [--rounds 15] [--kubedrill target/release/kubedrill]
                               [--baseline OTHER_KUBEDRILL] [--peers DIR]

Each case runs in a fresh 120x40 tmux window on a private tmux server; the time is from
just before the spawn to the first capture of the pane that shows the case's marker (the
home screen's "Topics" panel for kubedrill). Polling the pane costs a few milliseconds,
the same for every case: the `printf` floor measures exactly that overhead, so compare
cases with each other and with the floor, not with zero. Peak RSS is the process's
VmHWM at the moment its first frame was seen, and page faults its minor and major faults
until then: a count that does not change with the machine's speed, where most of a
first frame's time goes on a machine whose faults are slow.

Cases:
  floor        printf a marker (spawn + polling overhead)
  fresh        a bare `kubedrill` (folders from KUBEDRILL_DATA_DIR and KUBEDRILL_CONFIG_DIR),
               shipped content, a data folder that does not exist yet
  vocage       vocage 1.1.0 on a generated 10,000-card TSV deck, right after fresh
  existing     kubedrill, shipped content, a progress.db holding one review
  deck-fresh   kubedrill --content DECK (a generated 4 MB deck), fresh data folder
  deck-check   `kubedrill check DECK`, then printf the marker: the load of the same deck
               by the same method, which deck-fresh should be within 5 ms of
  base-*       fresh and existing with another kubedrill binary (--baseline), say one
               built from an earlier commit, to measure a change in one run
  carddown     carddown 0.4.1 `revise` on a generated, scanned 10,000-card vault

Then, outside tmux, `kubedrill check DECK` and `hashcards check` on a Markdown deck of
the same size and words, interleaved: milliseconds and bytes per millisecond.

Peers come from --peers DIR (DIR/bin/vocage, carddown, hashcards), built beforehand with
`cargo install --locked --root DIR vocage@1.1.0 carddown@0.4.1 hashcards@0.5.0`; a peer
not there is skipped. The decks come from benches/deckgen.rs, compiled here with rustc
(no dependencies, so offline). Builds nothing else: the kubedrill binary must exist
(`cargo build --release --offline`). Not run by CI; a measurement, not a test. Every tmux
session it starts is killed before it exits.
"""

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOCKET = f"kdbench-{os.getpid()}"
WIDTH, HEIGHT = 120, 40
TIMEOUT_S = 10.0
DECK_BYTES = 4_000_000
HERE = os.path.dirname(os.path.abspath(__file__))


def tmux(*args, check=True):
    return subprocess.run(
        ["tmux", "-L", SOCKET, *args],
        capture_output=True,
        text=True,
        check=check,
    )


def memory(name):
    """The pane's process (the command runs under `exec`, so it is the pane's): its peak RSS
    in KiB (VmHWM) and its page faults so far (minor and major), or None for either that
    cannot be read. Faults do not depend on how fast the machine is, so they show a change
    that milliseconds would hide in noise."""
    pid = tmux("display-message", "-p", "-t", name, "#{pane_pid}", check=False).stdout.strip()
    peak = faults = None
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    peak = int(line.split()[1])
    except (OSError, ValueError):
        pass
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            # Fields after the command name, which is in parentheses and may hold spaces:
            # minflt and majflt are the 10th and 12th fields of the line.
            rest = f.read().rsplit(")", 1)[1].split()
            faults = int(rest[7]) + int(rest[9])
    except (OSError, ValueError, IndexError):
        pass
    return peak, faults


def first_frame(name, command, marker, cwd=None, env=None):
    """Seconds from spawning `command` in a new session to its pane showing `marker`, and
    the process's peak RSS (KiB) and page faults at that moment."""
    start = time.perf_counter()
    cd = ["-c", cwd] if cwd else []
    env_args = [a for k, v in (env or {}).items() for a in ("-e", f"{k}={v}")]
    tmux("new-session", "-d", "-s", name, *cd, *env_args, "-x", str(WIDTH), "-y", str(HEIGHT),
         "exec " + command)
    try:
        while True:
            out = tmux("capture-pane", "-p", "-t", name, check=False).stdout
            if marker in out:
                took = time.perf_counter() - start
                return took, *memory(name)
            if time.perf_counter() - start > TIMEOUT_S:
                raise RuntimeError(f"{name}: no {marker!r} after {TIMEOUT_S}s:\n{out}")
    finally:
        tmux("kill-session", "-t", name, check=False)


def run_ms(argv, cwd=None):
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, check=False)
    took = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed: {done.stdout[-500:]!r} {done.stderr[-500:]!r}")
    return took


def dir_bytes(path):
    return sum(
        os.path.getsize(os.path.join(d, f))
        for d, _, files in os.walk(path)
        for f in files
        if f.endswith((".toml", ".md"))
    )


def decks(work):
    """The kubedrill deck and a hashcards deck of the same size, from benches/deckgen.rs."""
    gen = os.path.join(work, "deckgen")
    subprocess.run(
        ["rustc", "--edition", "2024", "-O", "-o", gen, os.path.join(HERE, "deckgen.rs")],
        check=True,
    )
    kd = os.path.join(work, "deck")
    subprocess.run([gen, "kubedrill", kd, str(DECK_BYTES)], check=True, capture_output=True)
    hc = os.path.join(work, "hashcards")
    subprocess.run([gen, "hashcards", hc, str(dir_bytes(kd))], check=True, capture_output=True)
    return kd, hc


def vocage_deck(folder, cards=10_000):
    path = os.path.join(folder, "vocage-10k.tsv")
    with open(path, "w", encoding="utf-8") as f:
        f.write("#front\tback\n")
        for i in range(cards):
            f.write(f"term {i}\tthe meaning of term {i}, in a few words\n")
    return path


def carddown_vault(folder, carddown, cards=10_000):
    vault = os.path.join(folder, "carddown")
    os.makedirs(vault)
    with open(os.path.join(vault, "cards.md"), "w", encoding="utf-8") as f:
        for i in range(cards):
            f.write(f"term {i}? : the meaning of term {i}, in a few words #flashcard\n")
    subprocess.run([carddown, "scan", vault], cwd=vault, check=True, capture_output=True)
    return vault


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--kubedrill", default="target/release/kubedrill")
    ap.add_argument("--baseline", help="another kubedrill binary to run beside it")
    ap.add_argument("--peers", default=os.environ.get("KUBEDRILL_PEERS"),
                    help="a cargo install root holding bin/vocage, carddown, hashcards")
    args = ap.parse_args()

    binary = os.path.abspath(args.kubedrill)
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: not built (cargo build --release --offline)")
    peer = {}
    for name in ("vocage", "carddown", "hashcards"):
        path = os.path.join(args.peers or "", "bin", name)
        if args.peers and os.access(path, os.X_OK):
            peer[name] = path
        else:
            print(f"({name} not found under --peers: skipped)")
    work = tempfile.mkdtemp(prefix="kdbench-")
    try:
        measure(args, binary, peer, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args, binary, peer, work):
    deck, hc_deck = decks(work)
    existing = os.path.join(work, "existing")
    # A progress.db holding one review, made by `import` (a bare run writes nothing: the
    # store makes its file at the first write).
    seed = os.path.join(work, "one-review.json")
    with open(seed, "w") as f:
        json.dump({"format": "kubedrill-progress", "version": 3, "reviews": [{
            "question_id": "spec-vs-status", "grade": "good", "reviewed_at": 1764547200000,
            "took_ms": 1000, "mode": "review", "phase_before": "new", "undone_at": None}],
            "cards": [], "mock_sessions": [], "solved_challenges": [], "quiz_sessions": [],
            "review_flags": [], "typed_answers": []}, f)
    subprocess.run([binary, "--data-dir", existing, "import", seed], capture_output=True,
                   check=True)
    if not os.path.exists(os.path.join(existing, "progress.db")):
        sys.exit(f"{existing}: import made no progress.db")
    q = shlex.quote
    n = [0]

    def fresh_dir():
        n[0] += 1
        return os.path.join(work, f"fresh-{n[0]}")

    # kubedrill's folders come from the environment, so `fresh` is a bare `kubedrill` as a
    # person types it (no arguments: clap is skipped) and no config of the user's is read.
    no_config = os.path.join(work, "no-config")

    def folders(data):
        return {"KUBEDRILL_DATA_DIR": data, "KUBEDRILL_CONFIG_DIR": no_config}

    # name -> () -> (command, marker, cwd, environment). In this order each round: vocage
    # right after fresh, so that pair sees the machine in the same state.
    cases = {
        "floor": lambda: (f"sh -c \"printf 'floor-ready\\n'; sleep {TIMEOUT_S}\"",
                          "floor-ready", None, None),
        "fresh": lambda: (q(binary), "Topics", None, folders(fresh_dir())),
    }
    if "vocage" in peer:
        tsv = vocage_deck(work)
        cases["vocage"] = lambda: (
            f"{q(peer['vocage'])} {q(tsv)}", "Use: q to quit", None, None)
    cases.update({
        "existing": lambda: (q(binary), "Topics", None, folders(existing)),
        "deck-fresh": lambda: (
            f"{q(binary)} --content {q(deck)}", "Topics", None, folders(fresh_dir())),
        "deck-check": lambda: (
            f"sh -c \"{q(binary)} check {q(deck)} >/dev/null && printf 'check-done\\n'; "
            f"sleep {TIMEOUT_S}\"", "check-done", None, None),
    })
    if args.baseline:
        base = os.path.abspath(args.baseline)
        base_existing = os.path.join(work, "base-existing")
        subprocess.run([base, "--data-dir", base_existing, "import", seed],
                       capture_output=True, check=False)
        cases["base-fresh"] = lambda: (q(base), "Topics", None, folders(fresh_dir()))
        cases["base-existing"] = lambda: (q(base), "Topics", None, folders(base_existing))
    if "carddown" in peer:
        vault = carddown_vault(work, peer["carddown"])
        # --force: a revise killed by the measurement leaves its lock behind.
        cases["carddown"] = lambda: (
            f"{q(peer['carddown'])} --force revise", "Revise Cards", vault, None)

    # A keep-alive session, so no case pays for starting the tmux server.
    tmux("new-session", "-d", "-s", "keep", "-x", "20", "-y", "5", "sleep 3600")
    times = {name: [] for name in cases}
    rss = {name: [] for name in cases}
    faults = {name: [] for name in cases}
    try:
        for r in range(args.rounds):
            for name, make in cases.items():
                command, marker, cwd, env = make()
                took, peak, flt = first_frame(f"{name}-{r}", command, marker, cwd, env)
                times[name].append(took * 1000)
                if peak is not None:
                    rss[name].append(peak)
                if flt is not None:
                    faults[name].append(flt)
    finally:
        tmux("kill-server", check=False)
    floor = statistics.median(times["floor"])
    print(f"spawn to first frame in tmux, {WIDTH}x{HEIGHT}, {args.rounds} interleaved rounds; "
          f"deck: {dir_bytes(deck):,} bytes")
    print(f"{'':<47} {'at first frame (medians)':>25}")
    print(f"{'case':<14} {'median':>9} {'min':>9} {'max':>9} {'over floor':>11} "
          f"{'peak RSS':>12} {'page faults':>12}")
    for name, ms in times.items():
        med = statistics.median(ms)
        # The floor's and check's processes are a shell, not what they measure.
        own = name not in ("floor", "deck-check")
        peak = f"{statistics.median(rss[name]) / 1024:.1f} MiB" if rss[name] and own else ""
        flt = f"{statistics.median(faults[name]):,.0f}" if faults[name] and own else ""
        print(f"{name:<14} {med:>7.1f}ms {min(ms):>7.1f}ms {max(ms):>7.1f}ms "
              f"{med - floor:>9.1f}ms {peak:>12} {flt:>12}")
    gap = statistics.median(times["deck-fresh"]) - statistics.median(times["deck-check"])
    print(f"deck-fresh - deck-check: {gap:+.1f} ms")
    if "vocage" in times:
        # Each round runs vocage right after fresh, so a round's pair saw the same machine.
        diffs = [f - v for f, v in zip(times["fresh"], times["vocage"])]
        ahead = sum(d <= 0 for d in diffs)
        print(f"fresh - vocage, round by round: median {statistics.median(diffs):+.1f} ms; "
              f"fresh no slower in {ahead} of {len(diffs)} rounds")

    if "hashcards" not in peer:
        return
    kd_bytes, hc_bytes = dir_bytes(deck), dir_bytes(hc_deck)
    # hashcards makes its database on the first check: that run is not counted.
    run_ms([peer["hashcards"], "check", hc_deck])
    kd, hc = [], []
    for _ in range(args.rounds):
        kd.append(run_ms([binary, "check", deck]))
        hc.append(run_ms([peer["hashcards"], "check", hc_deck], cwd=hc_deck))
    kd_rate = kd_bytes / statistics.median(kd)
    hc_rate = hc_bytes / statistics.median(hc)
    print(f"\ncheck, {args.rounds} interleaved runs (median, min, max; bytes per ms)")
    for name, ms, size, rate in (("kubedrill", kd, kd_bytes, kd_rate),
                                 ("hashcards", hc, hc_bytes, hc_rate)):
        print(f"{name:<10} {size:>10,} bytes {statistics.median(ms):>7.1f}ms "
              f"{min(ms):>7.1f}ms {max(ms):>7.1f}ms {rate:>10,.0f}")
    # Round by round: each kubedrill run against the hashcards run right after it.
    paired = sorted((kd_bytes / k) / (hc_bytes / h) for k, h in zip(kd, hc))
    at_4x = sum(r >= 4 for r in paired)
    print(f"kubedrill check per byte: {kd_rate / hc_rate:.2f}x hashcards (medians); round by "
          f"round {paired[0]:.2f}x to {paired[-1]:.2f}x, {at_4x} of {len(paired)} rounds at 4x "
          f"or more")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs `kubedrill sim` on a state's lines and writes the objects the fake API server serves.

    capture.py KUBEDRILL_BINARY STATE.sim OUT/objects.json

STATE.sim holds the scenario and seed as header comments, then the sim lines:

    # scenario: rollout
    # seed: default            (or a number, passed as --seed N)
    kubectl set image deploy/web app=nginx:1.28
    tick 60

After the lines, capture.py asks the simulator for `kubectl get deployments|replicasets|
pods|events|nodes|leases|poddisruptionbudgets|services|endpoints|endpointslices -o json` and then learns the simulator's clock ("simNow") by annotating the
Deployment `web` and reading the newest managedFields time (the annotation comes after
the dumps, so it is not in the objects). objects.json gets simNow, scenario, seed, the
lines, and the four lists.
"""

import json
import subprocess
import sys

DUMPS = [
    ("deployments", "kubectl get deployments -o json"),
    ("replicasets", "kubectl get replicasets -o json"),
    ("pods", "kubectl get pods -o json"),
    ("events", "kubectl get events -o json"),
    ("nodes", "kubectl get nodes -o json"),
    ("leases", "kubectl get leases -n kube-node-lease -o json"),
    ("poddisruptionbudgets", "kubectl get poddisruptionbudgets -o json"),
    ("services", "kubectl get services -o json"),
    ("endpoints", "kubectl get endpoints -o json"),
    ("endpointslices", "kubectl get endpointslices -o json"),
    ("statefulsets", "kubectl get statefulsets -o json"),
    ("controllerrevisions", "kubectl get controllerrevisions -o json"),
    ("persistentvolumeclaims", "kubectl get persistentvolumeclaims -o json"),
    ("daemonsets", "kubectl get daemonsets -o json"),
    ("jobs", "kubectl get jobs -o json"),
    ("cronjobs", "kubectl get cronjobs -o json"),
    ("horizontalpodautoscalers", "kubectl get hpa -o json"),
    ("mutatingwebhookconfigurations", "kubectl get mutatingwebhookconfigurations -o json"),
    ("validatingwebhookconfigurations", "kubectl get validatingwebhookconfigurations -o json"),
    ("validatingadmissionpolicies", "kubectl get validatingadmissionpolicies -o json"),
    ("validatingadmissionpolicybindings", "kubectl get validatingadmissionpolicybindings -o json"),
    ("customresourcedefinitions", "kubectl get customresourcedefinitions -o json"),
]
def probe(target):
    """Two lines that read the simulated clock: a write to the scenario's workload (the
    Deployment web, or its StatefulSet or DaemonSet) and its managedFields times."""
    return [
        "kubectl annotate %s kubedrill-oracle-probe=1 --overwrite" % target,
        "kubectl get %s -o jsonpath={.metadata.managedFields[*].time}" % target,
    ]


PROBE_TARGET = {"statefulset": "sts web", "daemonset": "ds agent", "jobs": "job batch"}


def echoed_blocks(stdout):
    """The echoed transcript as (line, output) pairs."""
    blocks, cur = [], None
    for l in stdout.splitlines(keepends=True):
        if l.startswith("$ "):
            cur = [l[2:].rstrip("\n"), ""]
            blocks.append(cur)
        elif cur is not None:
            cur[1] += l
    return blocks


def custom_kinds(stdout, crd_block):
    """(plural, group) of each CRD the echoed transcript's block `crd_block` lists."""
    blocks = echoed_blocks(stdout)
    if crd_block >= len(blocks):
        return []
    try:
        items = json.loads(blocks[crd_block][1])["items"]
    except (ValueError, KeyError):
        return []
    return [(c["spec"]["names"]["plural"], c["spec"]["group"]) for c in items]


def main():
    binary, state_file, out = sys.argv[1:4]
    scenario, seed, lines = None, "default", []
    with open(state_file) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("# scenario:"):
                scenario = line.split(":", 1)[1].strip()
            elif line.startswith("# seed:"):
                seed = line.split(":", 1)[1].strip()
            elif line.strip() and not line.startswith("#"):
                lines.append(line)
    if not scenario:
        sys.exit("capture.py: %s has no '# scenario:' line" % state_file)
    cmd = [binary, "sim", "--echo"]
    if seed != "default":
        cmd += ["--seed", seed]
    cmd.append(scenario)
    dumps = list(DUMPS)
    for _ in range(2):
        script = lines + [c for _, c in dumps] + probe(PROBE_TARGET.get(scenario, "deploy web"))
        res = subprocess.run(cmd, input="\n".join(script) + "\n", capture_output=True, text=True,
                             env={"PATH": "/usr/bin:/bin", "KUBEDRILL_DATA_DIR": "/nonexistent-oracle"})
        if res.returncode != 0:
            sys.exit("capture.py: sim failed (%d): %s" % (res.returncode, res.stderr))
        # The objects of each kind a CRD adds are dumped too, on a second run.
        crds = custom_kinds(res.stdout, len(lines) + len(DUMPS) - 1)
        if not crds or len(dumps) > len(DUMPS):
            break
        dumps += [(plural, "kubectl get %s.%s -o json" % (plural, group)) for plural, group in crds]
    blocks = echoed_blocks(res.stdout)
    if len(blocks) != len(script):
        sys.exit("capture.py: expected %d echoed lines, got %d" % (len(script), len(blocks)))
    for (line, output), want in zip(blocks, script):
        assert line == want, (line, want)
    doc = {
        "scenario": scenario,
        "seed": seed,
        "lines": lines,
        "transcript": "".join("$ %s\n%s" % (l, o) for l, o in blocks[: len(lines)]),
    }
    n = len(lines)
    for i, (plural, _) in enumerate(dumps):
        doc[plural] = json.loads(blocks[n + i][1])["items"]
    times = blocks[n + len(dumps) + 1][1].split()
    if not times:
        sys.exit("capture.py: the probe found no managedFields time")
    doc["simNow"] = max(times)  # RFC 3339 in UTC, all the same length: string max is time max
    with open(out, "w") as f:
        json.dump(doc, f, indent=2, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A tiny read-only Kubernetes API server for rendering real kubectl output offline.

Serves the objects of one JSON file (as `kubedrill sim` prints them with
`kubectl get KIND -o json`) to a real kubectl, on 127.0.0.1 only, over plain HTTP.

    fake_apiserver.py OBJECTS.json --port-file FILE [--base-file FILE] [--log FILE]

OBJECTS.json is {"simNow": "2025-01-06T10:01:05Z", "deployments": [...],
"replicasets": [...], "pods": [...], "events": [...]} (each list may be absent), and
optionally "reply": {"code": 400, "body": {...}, "warnings": ["..."]}, the answer to
every write (POST, PUT, PATCH, DELETE; without it writes get a 405). With --log, the
body of each write is logged too.

What it serves (namespace `default` only; stdlib only):
  * legacy discovery: /api, /apis, /api/v1, /apis/apps/v1, /version (aggregated
    discovery is answered with the legacy documents, which kubectl accepts);
    /openapi/v3 with a document per group-version that declares only PATCH's
    fieldValidation parameter; everything else (openapi v2 included) is a 404 Status,
    which kubectl get/describe never need.
  * GET of lists and single objects of pods, events, deployments, replicasets, with
    labelSelector (=, ==, !=, in, notin, exists, !key) and fieldSelector (=, ==, !=
    on dotted paths such as involvedObject.name) on lists.
  * `Accept: ...;as=Table;...` (what `kubectl get` sends): a meta.k8s.io/v1 Table
    built the way kube-apiserver 1.32's printers (pkg/printers/internalversion)
    build the Pod, ReplicaSet and Deployment tables, for the columns that matter
    here; AGE is computed against simNow (not the wall clock), so it is
    deterministic. Rows carry PartialObjectMetadata, or the full object with
    includeObject=Object (what --sort-by asks for). The pod printer's init-container
    branch and the events table (`get events`) are written from memory of the apiserver
    source and are exercised by no fixture: trust them less.

Time: kubectl computes some ages itself from the wall clock (describe's Events
column and "Terminating (lasts ...)"). So that those come out as of simNow, the
fields kubectl reads relative to now -- events' firstTimestamp, lastTimestamp,
eventTime, series.lastObservedTime, and metadata.deletionTimestamp -- are served
moved by (wall clock at server start - simNow), with microseconds. Every other
timestamp is served verbatim, so absolute times (Start Time, Started) print the
simulator's own dates. The wall-clock base is written to --base-file so the driver
can check that kubectl finished within the same second.
"""

import argparse
import datetime as dt
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NAMESPACE = "default"

RESOURCES = {
    # plural: (group, version, kind, shortNames, categories)
    "pods": ("", "v1", "Pod", ["po"], ["all"]),
    "events": ("", "v1", "Event", ["ev"], []),
    "nodes": ("", "v1", "Node", ["no"], []),
    "deployments": ("apps", "v1", "Deployment", ["deploy"], ["all"]),
    "replicasets": ("apps", "v1", "ReplicaSet", ["rs"], ["all"]),
    "leases": ("coordination.k8s.io", "v1", "Lease", [], []),
    "poddisruptionbudgets": ("policy", "v1", "PodDisruptionBudget", ["pdb"], []),
    "services": ("", "v1", "Service", ["svc"], ["all"]),
    "endpoints": ("", "v1", "Endpoints", ["ep"], []),
    "endpointslices": ("discovery.k8s.io", "v1", "EndpointSlice", [], []),
    "statefulsets": ("apps", "v1", "StatefulSet", ["sts"], ["all"]),
    "controllerrevisions": ("apps", "v1", "ControllerRevision", [], []),
    "persistentvolumeclaims": ("", "v1", "PersistentVolumeClaim", ["pvc"], []),
    "daemonsets": ("apps", "v1", "DaemonSet", ["ds"], ["all"]),
    # A group's resources in the order discovery lists them: sorted (apiserver installer).
    "cronjobs": ("batch", "v1", "CronJob", ["cj"], ["all"]),
    "jobs": ("batch", "v1", "Job", [], ["all"]),
    "horizontalpodautoscalers": ("autoscaling", "v2", "HorizontalPodAutoscaler", ["hpa"], ["all"]),
    "mutatingwebhookconfigurations": ("admissionregistration.k8s.io", "v1",
                                      "MutatingWebhookConfiguration", [], []),
    "validatingwebhookconfigurations": ("admissionregistration.k8s.io", "v1",
                                        "ValidatingWebhookConfiguration", [], []),
    "validatingadmissionpolicies": ("admissionregistration.k8s.io", "v1",
                                    "ValidatingAdmissionPolicy", [], []),
    "validatingadmissionpolicybindings": ("admissionregistration.k8s.io", "v1",
                                          "ValidatingAdmissionPolicyBinding", [], []),
    "customresourcedefinitions": ("apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                                  ["crd", "crds"], ["api-extensions"]),
}
# Resources with a scale subresource, as discovery lists them.
SCALABLE = {"deployments", "replicasets", "statefulsets"}
# Cluster-scoped resources: no namespace in their paths.
CLUSTER_SCOPED = {"nodes", "mutatingwebhookconfigurations", "validatingwebhookconfigurations",
                  "validatingadmissionpolicies", "validatingadmissionpolicybindings",
                  "customresourcedefinitions"}
# The API groups served besides the core group, with their group/version paths.
GROUPS = {"apps": "apps/v1", "coordination.k8s.io": "coordination.k8s.io/v1",
          "policy": "policy/v1", "discovery.k8s.io": "discovery.k8s.io/v1",
          "autoscaling": "autoscaling/v2", "batch": "batch/v1",
          "admissionregistration.k8s.io": "admissionregistration.k8s.io/v1",
          "apiextensions.k8s.io": "apiextensions.k8s.io/v1"}
# The kinds the objects' CustomResourceDefinitions add (filled in main): plural -> the
# served version's additionalPrinterColumns.
CUSTOM_COLUMNS = {}
# kube-apiserver lists groups by priority (apps, autoscaling, batch, policy, ...), and
# `get all` follows that order: only the relative order of the "all" groups matters here.

VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]


# ---------------------------------------------------------------- time helpers

def parse_ts(s):
    """RFC 3339 (with or without fractions, `Z` or offset) -> aware datetime."""
    if s is None:
        return None
    s = s.replace("Z", "+00:00")
    m = re.match(r"^(.*T\d\d:\d\d:\d\d)(\.\d+)?([+-]\d\d:\d\d)$", s)
    if not m:
        raise ValueError("bad timestamp %r" % s)
    frac = (m.group(2) or ".0")[1:7].ljust(6, "0")
    return dt.datetime.fromisoformat(m.group(1) + "." + frac + m.group(3))


def fmt_ts_micro(d):
    return d.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def human_duration(seconds_float):
    """k8s.io/apimachinery/pkg/util/duration.HumanDuration, on a float of seconds."""
    seconds = int(seconds_float)  # Go's int(d.Seconds()) truncates toward zero
    if seconds < -1:
        return "<invalid>"
    if seconds < 0:
        return "0s"
    if seconds < 60 * 2:
        return "%ds" % seconds
    minutes = seconds // 60
    if minutes < 10:
        s = seconds % 60
        return "%dm" % minutes if s == 0 else "%dm%ds" % (minutes, s)
    if minutes < 60 * 3:
        return "%dm" % minutes
    hours = seconds // 3600
    if hours < 8:
        m = minutes % 60
        return "%dh" % hours if m == 0 else "%dh%dm" % (hours, m)
    if hours < 48:
        return "%dh" % hours
    if hours < 24 * 8:
        h = hours % 24
        return "%dd" % (hours // 24) if h == 0 else "%dd%dh" % (hours // 24, h)
    if hours < 24 * 365 * 2:
        return "%dd" % (hours // 24)
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return "%dy" % (hours // 24 // 365) if dy == 0 else "%dy%dd" % (hours // 24 // 365, dy)
    return "%dy" % (hours // 24 // 365)


# ---------------------------------------------------------------- selectors

def split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return [p.strip() for p in out if p.strip()]


def label_match(selector, labels):
    labels = labels or {}
    for req in split_top(selector):
        m = re.match(r"^([^\s!=]+)\s+(in|notin)\s+\((.*)\)$", req)
        if m:
            key, op, vals = m.group(1), m.group(2), {v.strip() for v in m.group(3).split(",")}
            if op == "in" and labels.get(key) not in vals:
                return False
            if op == "notin" and key in labels and labels[key] in vals:
                return False
            continue
        if "!=" in req:
            k, v = req.split("!=", 1)
            if labels.get(k.strip()) == v.strip():
                return False
        elif "==" in req:
            k, v = req.split("==", 1)
            if labels.get(k.strip()) != v.strip():
                return False
        elif "=" in req:
            k, v = req.split("=", 1)
            if labels.get(k.strip()) != v.strip():
                return False
        elif req.startswith("!"):
            if req[1:].strip() in labels:
                return False
        elif req not in labels:
            return False
    return True


def dotted(obj, path):
    cur = obj
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return ""
        cur = cur[part]
    return "" if cur is None else str(cur)


def field_match(selector, obj):
    for req in split_top(selector):
        if "!=" in req:
            k, v = req.split("!=", 1)
            if dotted(obj, k.strip()) == v.strip():
                return False
        else:
            k, v = req.split("==", 1) if "==" in req else req.split("=", 1)
            if dotted(obj, k.strip()) != v.strip():
                return False
    return True


# ---------------------------------------------------------------- tables

def col(name, typ, priority=0, fmt=""):
    c = {"name": name, "type": typ, "format": fmt, "description": name, "priority": priority}
    return c


POD_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Ready", "string"),
    col("Status", "string"),
    col("Restarts", "string"),
    col("Age", "string"),
    col("IP", "string", 1),
    col("Node", "string", 1),
    col("Nominated Node", "string", 1),
    col("Readiness Gates", "string", 1),
]
RS_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Desired", "integer"),
    col("Current", "integer"),
    col("Ready", "integer"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
]
DEPLOY_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Ready", "string"),
    col("Up-to-date", "integer"),
    col("Available", "integer"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
]
NODE_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Status", "string"),
    col("Roles", "string"),
    col("Age", "string"),
    col("Version", "string"),
    col("Internal-IP", "string", 1),
    col("External-IP", "string", 1),
    col("OS-Image", "string", 1),
    col("Kernel-Version", "string", 1),
    col("Container-Runtime", "string", 1),
]
LEASE_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Holder", "string"),
    col("Age", "string"),
]
PDB_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Min Available", "string"),
    col("Max Unavailable", "string"),
    col("Allowed Disruptions", "integer"),
    col("Age", "string"),
]
# printers.go 1.32: statefulSetColumnDefinitions, controllerRevisionColumnDefinition,
# persistentVolumeClaimColumnDefinitions.
STS_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Ready", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
]
DS_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Desired", "integer"),
    col("Current", "integer"),
    col("Ready", "integer"),
    col("Up-to-date", "integer"),
    col("Available", "integer"),
    col("Node Selector", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
]
JOB_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Status", "string"),
    col("Completions", "string"),
    col("Duration", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
]
CRONJOB_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Schedule", "string"),
    col("Timezone", "string"),
    col("Suspend", "boolean"),
    col("Active", "integer"),
    col("Last Schedule", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
]
# mutatingWebhookColumnDefinitions / validatingWebhookColumnDefinitions.
WEBHOOK_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Webhooks", "integer"),
    col("Age", "string"),
]
# validatingAdmissionPolicy(Binding)ColumnDefinitions.
VAP_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Validations", "integer"),
    col("ParamKind", "string"),
    col("Age", "string"),
]
VAPB_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("PolicyName", "string"),
    col("ParamRef", "string"),
    col("Age", "string"),
]
HPA_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Reference", "string"),
    col("Targets", "string"),
    col("MinPods", "string"),
    col("MaxPods", "string"),
    col("Replicas", "string"),
    col("Age", "string"),
]
CONTROLLER_REVISION_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Controller", "string"),
    col("Revision", "string"),
    col("Age", "string"),
]
PVC_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Status", "string"),
    col("Volume", "string"),
    col("Capacity", "string"),
    col("Access Modes", "string"),
    col("StorageClass", "string"),
    col("VolumeAttributesClass", "string"),
    col("Age", "string"),
    col("VolumeMode", "string", 1),
]
SERVICE_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Type", "string"),
    col("Cluster-IP", "string"),
    col("External-IP", "string"),
    col("Port(s)", "string"),
    col("Age", "string"),
    col("Selector", "string", 1),
]
ENDPOINTS_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("Endpoints", "string"),
    col("Age", "string"),
]
ENDPOINTSLICE_COLUMNS = [
    col("Name", "string", fmt="name"),
    col("AddressType", "string"),
    col("Ports", "string"),
    col("Endpoints", "string"),
    col("Age", "string"),
]
EVENT_COLUMNS = [
    col("Last Seen", "string"),
    col("Type", "string"),
    col("Reason", "string"),
    col("Object", "string"),
    col("Message", "string"),
]


def format_label_selector(sel):
    """metav1.FormatLabelSelector."""
    if not sel:
        return "<none>"
    parts = ["%s=%s" % (k, v) for k, v in sorted((sel.get("matchLabels") or {}).items())]
    for e in sel.get("matchExpressions") or []:
        op = e["operator"]
        vals = ",".join(sorted(e.get("values") or []))
        if op == "In":
            parts.append("%s in (%s)" % (e["key"], vals))
        elif op == "NotIn":
            parts.append("%s notin (%s)" % (e["key"], vals))
        elif op == "Exists":
            parts.append(e["key"])
        elif op == "DoesNotExist":
            parts.append("!" + e["key"])
    s = ",".join(parts)
    return s if s else "<none>"


def version_priority(v):
    """A sort key for version names (version.CompareKubeAwareVersionStrings): GA, then
    beta, then alpha, higher numbers first, other names last in alphabetical order."""
    m = re.match(r"^v(\d+)(?:(alpha|beta)(\d+))?$", v)
    if not m:
        return (3, 0, 0, v)
    stage = {None: 0, "beta": 1, "alpha": 2}[m.group(2)]
    return (stage, -int(m.group(1)), -int(m.group(3) or 0), "")


def register_crds(crds):
    """Serves the kinds the Established CRDs add, at their preferred version."""
    for crd in crds:
        conds = (crd.get("status") or {}).get("conditions") or []
        if not any(c.get("type") == "Established" and c.get("status") == "True" for c in conds):
            continue
        spec = crd["spec"]
        served = sorted((v for v in spec["versions"] if v.get("served")),
                        key=lambda v: version_priority(v["name"]))
        if not served:
            continue
        names = spec["names"]
        plural, group, ver = names["plural"], spec["group"], served[0]["name"]
        RESOURCES[plural] = (group, ver, names["kind"], names.get("shortNames") or [],
                             names.get("categories") or [])
        if spec.get("scope") == "Cluster":
            CLUSTER_SCOPED.add(plural)
        GROUPS[group] = "%s/%s" % (group, ver)
        CUSTOM_COLUMNS[plural] = served[0].get("additionalPrinterColumns") or []


def simple_jsonpath(obj, path):
    """The first value of a printer column's JSONPath: `.a.b`, `.a[0]`, `.a[*].b`,
    `.a[?(@.k=="v")].b`; None when nothing is found."""
    tokens = re.findall(r'\.([A-Za-z0-9_-]+)|\[(\d+|\*|\?\(@\.(\w+)=="([^"]*)"\))\]', path)
    cur = [obj]
    for field, sub, key, val in tokens:
        nxt = []
        for c in cur:
            if field:
                if isinstance(c, dict) and field in c:
                    nxt.append(c[field])
            elif isinstance(c, list):
                if sub == "*":
                    nxt.extend(c)
                elif sub.isdigit():
                    if int(sub) < len(c):
                        nxt.append(c[int(sub)])
                else:
                    nxt.extend(x for x in c if isinstance(x, dict) and x.get(key) == val)
        cur = nxt
    return cur[0] if cur else None


class Tables:
    def __init__(self, sim_now, shift=None):
        self.sim_now = sim_now
        # How far pods' creationTimestamps were moved (see shift_objects).
        self.shift = shift or dt.timedelta(0)

    def age(self, ts, shifted=False):
        if not ts:
            return "<unknown>"
        t = parse_ts(ts) - (self.shift if shifted else dt.timedelta(0))
        return human_duration((self.sim_now - t).total_seconds())

    def pod_row(self, pod):
        spec, status, meta = pod.get("spec", {}), pod.get("status", {}), pod.get("metadata", {})
        restarts = 0
        total = len(spec.get("containers") or [])
        ready = 0
        last_restart = None
        phase = status.get("phase", "")
        reason = status.get("reason") or phase
        for c in status.get("conditions") or []:
            if c.get("type") == "PodScheduled" and c.get("reason") == "SchedulingGated":
                reason = "SchedulingGated"
        init_specs = spec.get("initContainers") or []
        for ic in init_specs:
            if ic.get("restartPolicy") == "Always":
                total += 1
        initializing = False
        for i, cs in enumerate(status.get("initContainerStatuses") or []):
            restarts += int(cs.get("restartCount", 0))
            st = cs.get("state") or {}
            term = st.get("terminated")
            if term and term.get("exitCode", 0) == 0:
                continue
            if st.get("running") and any(
                    ic.get("name") == cs.get("name") and ic.get("restartPolicy") == "Always"
                    for ic in init_specs):
                if cs.get("started"):
                    if cs.get("ready"):
                        ready += 1
                    continue
            if term:
                if term.get("reason"):
                    reason = "Init:" + term["reason"]
                elif term.get("signal"):
                    reason = "Init:Signal:%d" % term["signal"]
                else:
                    reason = "Init:ExitCode:%d" % term.get("exitCode", 0)
            elif st.get("waiting") and (st["waiting"].get("reason") or "") not in ("", "PodInitializing"):
                reason = "Init:" + st["waiting"]["reason"]
            else:
                reason = "Init:%d/%d" % (i, len(init_specs))
            initializing = True
            break
        initialized = any(c.get("type") == "Initialized" and c.get("status") == "True"
                          for c in status.get("conditions") or [])
        if not initializing or initialized:
            has_running = False
            for cs in reversed(status.get("containerStatuses") or []):
                restarts += int(cs.get("restartCount", 0))
                lt = (cs.get("lastState") or {}).get("terminated")
                if lt and lt.get("finishedAt"):
                    f = parse_ts(lt["finishedAt"])
                    if last_restart is None or last_restart < f:
                        last_restart = f
                st = cs.get("state") or {}
                w, t = st.get("waiting"), st.get("terminated")
                if w and w.get("reason"):
                    reason = w["reason"]
                elif t and t.get("reason"):
                    reason = t["reason"]
                elif t is not None and not t.get("reason"):
                    if t.get("signal"):
                        reason = "Signal:%d" % t["signal"]
                    else:
                        reason = "ExitCode:%d" % t.get("exitCode", 0)
                elif cs.get("ready") and st.get("running") is not None:
                    has_running = True
                    ready += 1
            if reason == "Completed" and has_running:
                if any(c.get("type") == "Ready" and c.get("status") == "True"
                       for c in status.get("conditions") or []):
                    reason = "Running"
                else:
                    reason = "NotReady"
        if meta.get("deletionTimestamp") and status.get("reason") == "NodeLost":
            reason = "Unknown"
        elif meta.get("deletionTimestamp") and phase not in ("Succeeded", "Failed"):
            reason = "Terminating"
        restarts_str = str(restarts)
        if restarts != 0 and last_restart is not None:
            restarts_str = "%d (%s ago)" % (
                restarts, human_duration((self.sim_now - last_restart).total_seconds()))
        gates = spec.get("readinessGates") or []
        if gates:
            conds = {c.get("type"): c.get("status") for c in status.get("conditions") or []}
            tr = sum(1 for g in gates if conds.get(g.get("conditionType")) == "True")
            gates_str = "%d/%d" % (tr, len(gates))
        else:
            gates_str = "<none>"
        return [meta.get("name"), "%d/%d" % (ready, total), reason, restarts_str,
                self.age(meta.get("creationTimestamp"), shifted=True),
                status.get("podIP") or "<none>", spec.get("nodeName") or "<none>",
                status.get("nominatedNodeName") or "<none>", gates_str]

    def containers_images(self, tpl):
        cs = (tpl.get("spec") or {}).get("containers") or []
        return ",".join(c.get("name", "") for c in cs), ",".join(c.get("image", "") for c in cs)

    def rs_row(self, rs):
        spec, status, meta = rs.get("spec", {}), rs.get("status", {}), rs.get("metadata", {})
        names, images = self.containers_images(spec.get("template") or {})
        return [meta.get("name"), int(spec.get("replicas", 1)), int(status.get("replicas", 0)),
                int(status.get("readyReplicas", 0)), self.age(meta.get("creationTimestamp")),
                names, images, format_label_selector(spec.get("selector"))]

    def deploy_row(self, d):
        spec, status, meta = d.get("spec", {}), d.get("status", {}), d.get("metadata", {})
        names, images = self.containers_images(spec.get("template") or {})
        return [meta.get("name"),
                "%d/%d" % (int(status.get("readyReplicas", 0)), int(spec.get("replicas", 1))),
                int(status.get("updatedReplicas", 0)), int(status.get("availableReplicas", 0)),
                self.age(meta.get("creationTimestamp")), names, images,
                format_label_selector(spec.get("selector"))]

    def sts_row(self, s):
        # printStatefulSet
        spec, status, meta = s.get("spec", {}), s.get("status", {}), s.get("metadata", {})
        names, images = self.containers_images(spec.get("template") or {})
        return [meta.get("name"),
                "%d/%d" % (int(status.get("readyReplicas", 0)), int(spec.get("replicas", 1))),
                self.age(meta.get("creationTimestamp")), names, images]

    def ds_row(self, d):
        # printDaemonSet: the node selector as labels.FormatLabels prints it
        spec, status, meta = d.get("spec", {}), d.get("status", {}), d.get("metadata", {})
        names, images = self.containers_images(spec.get("template") or {})
        ns = ((spec.get("template") or {}).get("spec") or {}).get("nodeSelector") or {}
        node_selector = ",".join("%s=%s" % (k, ns[k]) for k in sorted(ns)) or "<none>"
        n = lambda f: int(status.get(f, 0))
        return [meta.get("name"), n("desiredNumberScheduled"), n("currentNumberScheduled"),
                n("numberReady"), n("updatedNumberScheduled"), n("numberAvailable"),
                node_selector, self.age(meta.get("creationTimestamp")), names, images,
                format_label_selector(spec.get("selector"))]

    def job_row(self, j):
        # printJob (1.32): STATUS from the first condition that holds, COMPLETIONS,
        # DURATION from startTime to completionTime (or now)
        spec, status, meta = j.get("spec", {}), j.get("status", {}), j.get("metadata", {})
        names, images = self.containers_images(spec.get("template") or {})
        def has(t):
            return any(c.get("type") == t and c.get("status") == "True"
                       for c in status.get("conditions") or [])
        if has("Complete"):
            state = "Complete"
        elif has("Failed"):
            state = "Failed"
        elif meta.get("deletionTimestamp"):
            state = "Terminating"
        elif has("Suspended"):
            state = "Suspended"
        elif has("FailureTarget"):
            state = "FailureTarget"
        else:
            state = "Running"
        succeeded = int(status.get("succeeded", 0))
        if spec.get("completions") is not None:
            completions = "%d/%d" % (succeeded, int(spec["completions"]))
        elif int(spec.get("parallelism") or 0) > 1:
            completions = "%d/1 of %d" % (succeeded, int(spec["parallelism"]))
        else:
            completions = "%d/1" % succeeded
        start, done = status.get("startTime"), status.get("completionTime")
        if not start:
            duration = ""
        elif not done:
            duration = human_duration((self.sim_now - parse_ts(start)).total_seconds())
        else:
            duration = human_duration((parse_ts(done) - parse_ts(start)).total_seconds())
        return [meta.get("name"), state, completions, duration,
                self.age(meta.get("creationTimestamp")), names, images,
                format_label_selector(spec.get("selector"))]

    def cronjob_row(self, c):
        # printCronJob (1.32): SUSPEND as printBoolPtr, LAST SCHEDULE <none> until one
        spec, status, meta = c.get("spec", {}), c.get("status", {}), c.get("metadata", {})
        tpl = ((spec.get("jobTemplate") or {}).get("spec") or {})
        names, images = self.containers_images(tpl.get("template") or {})
        suspend = spec.get("suspend")
        suspend = "<unset>" if suspend is None else ("True" if suspend else "False")
        last = status.get("lastScheduleTime")
        return [meta.get("name"), spec.get("schedule", ""), spec.get("timeZone") or "<none>",
                suspend, len(status.get("active") or []),
                self.age(last) if last else "<none>",
                self.age(meta.get("creationTimestamp")), names, images,
                format_label_selector(tpl.get("selector"))]

    @staticmethod
    def hpa_metrics(specs, statuses):
        """formatHPAMetrics (1.32, resource metrics): `cpu: current/target`, two at most."""
        if not specs:
            return "<none>"
        out = []
        for i, spec in enumerate(specs):
            if spec.get("type") != "Resource":
                out.append("<unknown type>")
                continue
            res = spec.get("resource") or {}
            target = res.get("target") or {}
            st = statuses[i].get("resource") if i < len(statuses) else None
            if target.get("averageValue") is not None:
                cur = "<unknown>"
                if st:
                    cur = (st.get("current") or {}).get("averageValue", "<nil>")
                out.append("%s: %s/%s" % (res.get("name"), cur, target["averageValue"]))
            else:
                cur = "<unknown>"
                if st and (st.get("current") or {}).get("averageUtilization") is not None:
                    cur = "%d%%" % st["current"]["averageUtilization"]
                tgt = "<auto>"
                if target.get("averageUtilization") is not None:
                    tgt = "%d%%" % target["averageUtilization"]
                out.append("%s: %s/%s" % (res.get("name"), cur, tgt))
        if len(out) > 2:
            return "%s + %d more..." % (", ".join(out[:2]), len(out) - 2)
        return ", ".join(out)

    def hpa_row(self, h):
        spec, status, meta = h.get("spec", {}), h.get("status", {}), h.get("metadata", {})
        ref = spec.get("scaleTargetRef") or {}
        mn = spec.get("minReplicas")
        return [meta.get("name"), "%s/%s" % (ref.get("kind", ""), ref.get("name", "")),
                self.hpa_metrics(spec.get("metrics") or [], status.get("currentMetrics") or []),
                "<unset>" if mn is None else str(mn), spec.get("maxReplicas", 0),
                status.get("currentReplicas", 0), self.age(meta.get("creationTimestamp"))]

    def controller_revision_row(self, r):
        # printControllerRevision: formatResourceName(GroupKind, name, withKind)
        meta = r.get("metadata", {})
        controller = "<none>"
        for ref in meta.get("ownerReferences") or []:
            if ref.get("controller"):
                api = ref.get("apiVersion", "")
                group = api.rsplit("/", 1)[0] if "/" in api else ""
                gk = ref.get("kind", "").lower() + ("." + group if group else "")
                controller = gk + "/" + ref.get("name", "")
                break
        return [meta.get("name"), controller, int(r.get("revision", 0)),
                self.age(meta.get("creationTimestamp"))]

    def pvc_row(self, c):
        # printPersistentVolumeClaim
        spec, status, meta = c.get("spec", {}), c.get("status", {}), c.get("metadata", {})
        phase = "Terminating" if meta.get("deletionTimestamp") else status.get("phase", "")
        capacity, modes = "", ""
        if spec.get("volumeName"):
            have = status.get("accessModes") or []
            modes = ",".join(short for long, short in (
                ("ReadWriteOnce", "RWO"), ("ReadOnlyMany", "ROX"),
                ("ReadWriteMany", "RWX"), ("ReadWriteOncePod", "RWOP")) if long in have)
            capacity = (status.get("capacity") or {}).get("storage", "")
        cls = (meta.get("annotations") or {}).get("volume.beta.kubernetes.io/storage-class",
                                                  spec.get("storageClassName", ""))
        return [meta.get("name"), phase, spec.get("volumeName", ""), capacity, modes, cls,
                spec.get("volumeAttributesClassName") or "<unset>",
                self.age(meta.get("creationTimestamp")), spec.get("volumeMode") or "<unset>"]

    def event_row(self, e):
        io = e.get("involvedObject") or {}
        last = e.get("lastTimestamp") or e.get("eventTime") or (e.get("metadata") or {}).get("creationTimestamp")
        return [self.age(last), e.get("type", ""), e.get("reason", ""),
                "%s/%s" % ((io.get("kind") or "").lower(), io.get("name", "")),
                (e.get("message") or "").strip()]

    def node_row(self, n):
        """printNode (pkg/printers/internalversion/printers.go, 1.32)."""
        status = []
        for c in (n.get("status") or {}).get("conditions") or []:
            if c.get("type") == "Ready":
                status.append("Ready" if c.get("status") == "True" else "NotReady")
                break
        if not status:
            status.append("Unknown")
        if (n.get("spec") or {}).get("unschedulable"):
            status.append("SchedulingDisabled")
        roles = set()
        for k, v in ((n.get("metadata") or {}).get("labels") or {}).items():
            if k.startswith("node-role.kubernetes.io/") and k[len("node-role.kubernetes.io/"):]:
                roles.add(k[len("node-role.kubernetes.io/"):])
            elif k == "kubernetes.io/role" and v:
                roles.add(v)
        info = (n.get("status") or {}).get("nodeInfo") or {}

        def addr(t):
            for a in (n.get("status") or {}).get("addresses") or []:
                if a.get("type") == t:
                    return a.get("address", "")
            return "<none>"
        return [n["metadata"]["name"], ",".join(status), ",".join(sorted(roles)) or "<none>",
                self.age(n["metadata"].get("creationTimestamp")), info.get("kubeletVersion", ""),
                addr("InternalIP"), addr("ExternalIP"), info.get("osImage") or "<unknown>",
                info.get("kernelVersion") or "<unknown>",
                info.get("containerRuntimeVersion") or "<unknown>"]

    def webhook_row(self, c):
        """printMutatingWebhook / printValidatingWebhook."""
        return [c["metadata"]["name"], len(c.get("webhooks") or []),
                self.age(c["metadata"].get("creationTimestamp"))]

    def vap_row(self, p):
        """printValidatingAdmissionPolicy."""
        spec = p.get("spec") or {}
        kind = spec.get("paramKind")
        pk = "%s/%s" % (kind.get("apiVersion", ""), kind.get("kind", "")) if kind else "<unset>"
        return [p["metadata"]["name"], len(spec.get("validations") or []), pk,
                self.age(p["metadata"].get("creationTimestamp"))]

    def vapb_row(self, b):
        """printValidatingAdmissionPolicyBinding (no paramRef in the demo)."""
        spec = b.get("spec") or {}
        return [b["metadata"]["name"], spec.get("policyName", ""), "<unset>",
                self.age(b["metadata"].get("creationTimestamp"))]

    def lease_row(self, l):
        """printLease."""
        return [l["metadata"]["name"], (l.get("spec") or {}).get("holderIdentity", ""),
                self.age(l["metadata"].get("creationTimestamp"))]

    def pdb_row(self, p):
        """printPodDisruptionBudget: an unset bound prints N/A."""
        spec = p.get("spec") or {}

        def bound(k):
            v = spec.get(k)
            return "N/A" if v is None else str(v)
        return [p["metadata"]["name"], bound("minAvailable"), bound("maxUnavailable"),
                int((p.get("status") or {}).get("disruptionsAllowed", 0)),
                self.age(p["metadata"].get("creationTimestamp"))]

    def service_row(self, s):
        """printService, for the types the demo serves (ClusterIP)."""
        spec = s.get("spec") or {}
        ips = spec.get("clusterIPs") or []
        external = ",".join(spec.get("externalIPs") or []) or "<none>"
        ports = []
        for p in spec.get("ports") or []:
            if p.get("nodePort"):
                ports.append("%d:%d/%s" % (p.get("port", 0), p["nodePort"], p.get("protocol", "")))
            else:
                ports.append("%d/%s" % (p.get("port", 0), p.get("protocol", "")))
        selector = ",".join("%s=%s" % kv for kv in sorted((spec.get("selector") or {}).items()))
        return [s["metadata"]["name"], spec.get("type", ""), ips[0] if ips else "<none>",
                external, ",".join(ports) or "<none>",
                self.age(s["metadata"].get("creationTimestamp")), selector or "<none>"]

    def endpoints_row(self, e):
        """printEndpoints: formatEndpoints(endpoints, nil)."""
        subsets = e.get("subsets") or []
        if not subsets:
            cell = "<none>"
        else:
            lst, more, count = [], False, 0
            for ss in subsets:
                addrs = ss.get("addresses") or []
                ports = ss.get("ports") or []
                if not ports:
                    count += len(addrs)
                    for a in addrs:
                        if len(lst) == 3:
                            more = True
                            break
                        lst.append(a["ip"])
                    continue
                for p in ports:
                    count += len(addrs)
                    for a in addrs:
                        if len(lst) == 3:
                            more = True
                            break
                        ip = a["ip"]
                        lst.append(("[%s]:%d" if ":" in ip else "%s:%d") % (ip, p.get("port", 0)))
            cell = ",".join(lst)
            if more:
                cell = "%s + %d more..." % (cell, count - 3)
        return [e["metadata"]["name"], cell, self.age(e["metadata"].get("creationTimestamp"))]

    @staticmethod
    def list_with_more(lst, more, count):
        ret = ",".join(lst)
        if more:
            return "%s + %d more..." % (ret, count - 3)
        return ret or "<unset>"

    def endpointslice_row(self, s):
        """printEndpointSlice: formatDiscoveryPorts and formatDiscoveryEndpoints."""
        lst, more, count = [], False, 0
        for p in s.get("ports") or []:
            if len(lst) < 3:
                if p.get("port") is not None:
                    lst.append(str(p["port"]))
                elif p.get("name") is not None:
                    lst.append(p["name"])
                else:
                    lst.append("*")
            elif len(lst) == 3:
                more = True
            count += 1
        ports = self.list_with_more(lst, more, count)
        lst, more, count = [], False, 0
        for e in s.get("endpoints") or []:
            for a in e.get("addresses") or []:
                if len(lst) < 3:
                    lst.append(a)
                elif len(lst) == 3:
                    more = True
                count += 1
        eps = self.list_with_more(lst, more, count)
        return [s["metadata"]["name"], s.get("addressType", ""), ports, eps,
                self.age(s["metadata"].get("creationTimestamp"))]

    def crd_row(self, c):
        return [c["metadata"]["name"], c["metadata"].get("creationTimestamp")]

    def custom(self, plural):
        """A custom kind's columns and row function, as its table convertor builds them."""
        decl = CUSTOM_COLUMNS[plural]
        if not decl:
            cols = [col("Name", "string", fmt="name"), col("Age", "date")]
            return cols, lambda o: [o["metadata"]["name"],
                                    self.age(o["metadata"].get("creationTimestamp"))]
        cols = [col("Name", "string", fmt="name")] + [
            col(c["name"], c["type"], c.get("priority", 0), c.get("format", "")) for c in decl]

        def row(o):
            cells = [o["metadata"]["name"]]
            for c in decl:
                v = simple_jsonpath(o, c["jsonPath"])
                t = c["type"]
                if v is None:
                    cells.append(None)
                elif t == "integer":
                    cells.append(int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None)
                elif t == "number":
                    cells.append(float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None)
                elif t == "boolean":
                    cells.append(v if isinstance(v, bool) else None)
                elif t == "date":
                    cells.append(self.age(v) if isinstance(v, str) else None)
                else:
                    cells.append(v if isinstance(v, str) else json.dumps(v, separators=(",", ":")))
            return cells
        return cols, row

    def build(self, plural, items, include_object, resource_version):
        if plural in CUSTOM_COLUMNS:
            columns, rowf = self.custom(plural)
        else:
            columns, rowf = self.builtin(plural)
        return self.table(columns, rowf, items, include_object, resource_version)

    def builtin(self, plural):
        return {
            "services": (SERVICE_COLUMNS, self.service_row),
            "statefulsets": (STS_COLUMNS, self.sts_row),
            "daemonsets": (DS_COLUMNS, self.ds_row),
            "jobs": (JOB_COLUMNS, self.job_row),
            "cronjobs": (CRONJOB_COLUMNS, self.cronjob_row),
            "horizontalpodautoscalers": (HPA_COLUMNS, self.hpa_row),
            "mutatingwebhookconfigurations": (WEBHOOK_COLUMNS, self.webhook_row),
            "validatingwebhookconfigurations": (WEBHOOK_COLUMNS, self.webhook_row),
            "validatingadmissionpolicies": (VAP_COLUMNS, self.vap_row),
            "validatingadmissionpolicybindings": (VAPB_COLUMNS, self.vapb_row),
            "controllerrevisions": (CONTROLLER_REVISION_COLUMNS, self.controller_revision_row),
            "persistentvolumeclaims": (PVC_COLUMNS, self.pvc_row),
            "endpoints": (ENDPOINTS_COLUMNS, self.endpoints_row),
            "endpointslices": (ENDPOINTSLICE_COLUMNS, self.endpointslice_row),
            "nodes": (NODE_COLUMNS, self.node_row),
            "leases": (LEASE_COLUMNS, self.lease_row),
            "poddisruptionbudgets": (PDB_COLUMNS, self.pdb_row),
            "pods": (POD_COLUMNS, self.pod_row),
            "replicasets": (RS_COLUMNS, self.rs_row),
            "deployments": (DEPLOY_COLUMNS, self.deploy_row),
            "events": (EVENT_COLUMNS, self.event_row),
            "customresourcedefinitions": ([col("Name", "string", fmt="name"),
                                           col("Created At", "date")], self.crd_row),
        }[plural]

    def table(self, columns, rowf, items, include_object, resource_version):
        rows = []
        for obj in items:
            row = {"cells": rowf(obj)}
            if include_object == "Object":
                row["object"] = obj
            elif include_object != "None":
                row["object"] = {
                    "kind": "PartialObjectMetadata",
                    "apiVersion": "meta.k8s.io/v1",
                    "metadata": obj.get("metadata", {}),
                }
            rows.append(row)
        return {
            "kind": "Table",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": resource_version},
            "columnDefinitions": columns,
            "rows": rows,
        }


# ---------------------------------------------------------------- server

RELATIVE_EVENT_FIELDS = ("firstTimestamp", "lastTimestamp", "eventTime")


def shift_objects(store, shift):
    """Move the timestamps kubectl reads relative to the wall clock by `shift`."""

    def mv(s):
        return fmt_ts_micro(parse_ts(s) + shift) if s else s

    for items in store.values():
        for obj in items:
            meta = obj.get("metadata") or {}
            if meta.get("deletionTimestamp"):
                meta["deletionTimestamp"] = mv(meta["deletionTimestamp"])
    # describe node prints each pod's age from the wall clock; the pods table undoes this.
    for p in store.get("pods", []):
        meta = p.get("metadata") or {}
        if meta.get("creationTimestamp"):
            meta["creationTimestamp"] = mv(meta["creationTimestamp"])
    for e in store.get("events", []):
        for f in RELATIVE_EVENT_FIELDS:
            if e.get(f):
                e[f] = mv(e[f])
        series = e.get("series")
        if series and series.get("lastObservedTime"):
            series["lastObservedTime"] = mv(series["lastObservedTime"])


def status_doc(code, reason, message, details=None):
    d = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
         "message": message, "reason": reason, "code": code}
    if details:
        d["details"] = details
    return d


def openapi_v3(prefix):
    """Just enough of an OpenAPI v3 group-version document for kubectl to learn that PATCH
    takes `fieldValidation` (cli-runtime query_param_verifier_v3.go), so it leaves field
    validation to the server as it does with a real one. No schemas: kubectl apply then
    computes its patches from its built-in types."""
    paths = {}
    for plural, (group, version, kind, _, _) in RESOURCES.items():
        if ("/apis/" + group + "/" + version if group else "/api/" + version) != prefix:
            continue
        paths["%s/namespaces/{namespace}/%s/{name}" % (prefix, plural)] = {"patch": {
            "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": kind},
            "parameters": [{"name": "fieldValidation", "in": "query", "schema": {"type": "string"}}],
            "responses": {}}}
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "v1.32.4"},
            "paths": paths}


def make_handler(store, tables, log, port_holder, resource_version, reply):
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            if log:
                log.write("%s %s\n" % (self.command, self.path))
                log.write("    Accept: %s\n" % self.headers.get("Accept"))
                log.flush()

        def send_json(self, code, doc):
            body = json.dumps(doc).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def not_found(self, msg="the server could not find the requested resource"):
            self.send_json(404, status_doc(404, "NotFound", msg, {}))

        def do_GET(self):
            u = urllib.parse.urlsplit(self.path)
            q = urllib.parse.parse_qs(u.query)
            path = u.path.rstrip("/") or "/"
            accept = self.headers.get("Accept") or ""
            if path == "/version":
                return self.send_json(200, {
                    "major": "1", "minor": "32", "gitVersion": "v1.32.4",
                    "gitCommit": "0000000000000000000000000000000000000000",
                    "gitTreeState": "clean", "buildDate": "2025-01-01T00:00:00Z",
                    "goVersion": "go1.23.6", "compiler": "gc", "platform": "linux/amd64"})
            if path == "/api":
                return self.send_json(200, {
                    "kind": "APIVersions", "versions": ["v1"],
                    "serverAddressByClientCIDRs": [
                        {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:%d" % port_holder[0]}]})
            if path == "/apis":
                return self.send_json(200, {
                    "kind": "APIGroupList", "apiVersion": "v1",
                    "groups": [{"name": g,
                                "versions": [{"groupVersion": gv, "version": gv.split("/")[1]}],
                                "preferredVersion": {"groupVersion": gv,
                                                     "version": gv.split("/")[1]}}
                               for g, gv in GROUPS.items()]})
            if path == "/api/v1" or path in ("/apis/" + gv for gv in GROUPS.values()):
                gv = "v1" if path == "/api/v1" else path[len("/apis/"):]
                group = "" if path == "/api/v1" else gv.split("/")[0]
                res = []
                for plural, (g, v, kind, short, cats) in RESOURCES.items():
                    if g != group:
                        continue
                    r = {"name": plural, "singularName": kind.lower(),
                         "namespaced": plural not in CLUSTER_SCOPED,
                         "kind": kind, "verbs": VERBS}
                    if short:
                        r["shortNames"] = short
                    if cats:
                        r["categories"] = cats
                    res.append(r)
                    # The scale subresource, which `kubectl autoscale` looks for.
                    if plural in SCALABLE:
                        res.append({"name": plural + "/scale", "singularName": "",
                                    "namespaced": True, "group": "autoscaling",
                                    "version": "v1", "kind": "Scale",
                                    "verbs": ["get", "patch", "update"]})
                return self.send_json(200, {"kind": "APIResourceList", "apiVersion": "v1",
                                            "groupVersion": gv, "resources": res})
            if path == "/openapi/v3":
                return self.send_json(200, {"paths": {
                    gv: {"serverRelativeURL": "/openapi/v3/%s?hash=0" % gv}
                    for gv in ("api/v1", "apis/apps/v1")}})
            if path in ("/openapi/v3/api/v1", "/openapi/v3/apis/apps/v1"):
                return self.send_json(200, openapi_v3(path[len("/openapi/v3"):]))
            prefix = r"^/(?:api/v1|apis/(?:%s))" % "|".join(re.escape(gv) for gv in GROUPS.values())
            m = re.match(prefix + r"/namespaces/([^/]+)/([^/]+)(?:/([^/]+))?$", path)
            cluster = re.match(prefix + r"/([^/]+)(?:/([^/]+))?$", path)
            if m:
                ns, plural, name = m.group(1), m.group(2), m.group(3)
            elif cluster:
                # A cluster-scoped resource, or a list across all namespaces.
                ns, plural, name = None, cluster.group(1), cluster.group(2)
            else:
                return self.not_found()
            if plural not in RESOURCES:
                return self.not_found()
            group, version, kind, _, _ = RESOURCES[plural]
            gv_path = "/api/v1" if not group else "/apis/%s/%s" % (group, version)
            if not path.startswith(gv_path + "/"):
                return self.not_found()
            if ns is not None and plural in CLUSTER_SCOPED:
                return self.not_found()
            if ns is None and plural not in CLUSTER_SCOPED and name is not None:
                return self.not_found()
            # etcd lists come back in key order: namespace, then name
            items = sorted((o for o in store.get(plural, [])
                            if ns is None
                            or (o.get("metadata") or {}).get("namespace", NAMESPACE) == ns),
                           key=lambda o: ((o.get("metadata") or {}).get("namespace", ""),
                                          o["metadata"]["name"]))
            want_table = "as=Table" in accept
            include_object = (q.get("includeObject") or ["PartialObjectMetadata"])[0]
            qualified = plural + ("." + group if group else "")
            if name is not None:
                found = [o for o in items if o["metadata"]["name"] == name]
                if not found:
                    det = {"name": name, "kind": plural}
                    if group:
                        det["group"] = group
                    return self.send_json(404, status_doc(
                        404, "NotFound", '%s "%s" not found' % (qualified, name), det))
                obj = found[0]
                if want_table:
                    return self.send_json(200, tables.build(plural, [obj], include_object,
                                                            obj["metadata"].get("resourceVersion", "")))
                return self.send_json(200, obj)
            if q.get("labelSelector"):
                items = [o for o in items
                         if label_match(q["labelSelector"][0], (o.get("metadata") or {}).get("labels"))]
            if q.get("fieldSelector"):
                items = [o for o in items if field_match(q["fieldSelector"][0], o)]
            if want_table:
                return self.send_json(200, tables.build(plural, items, include_object, resource_version))
            return self.send_json(200, {
                "kind": kind + "List",
                "apiVersion": (group + "/" + version) if group else version,
                "metadata": {"resourceVersion": resource_version},
                "items": items})

        def do_POST(self):
            # Writes are answered with the OBJECTS.json's "reply", when it has one: what the
            # simulator's API server answered, so real kubectl renders that answer.
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if log:
                log.write("    Body: %s\n" % body.decode("utf-8", "replace"))
                log.flush()
            if not reply:
                return self.send_json(405, status_doc(405, "MethodNotAllowed",
                                                      "this fake server is read-only"))
            data = json.dumps(reply["body"]).encode()
            self.send_response(reply["code"])
            for w in reply.get("warnings") or []:
                # apiserver's warning recorder: code 299, agent "-", the text quoted.
                self.send_header("Warning", '299 - "%s"' % w.replace("\\", "\\\\").replace('"', '\\"'))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_PUT = do_PATCH = do_DELETE = do_POST

    return H


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("objects")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--base-file")
    ap.add_argument("--log")
    ap.add_argument("--lifetime", type=float, default=120.0,
                    help="exit after this many seconds whatever happens")
    args = ap.parse_args()

    with open(args.objects) as f:
        doc = json.load(f)
    sim_now = parse_ts(doc["simNow"])
    register_crds(doc.get("customresourcedefinitions") or [])
    store = {}
    for plural, (_, _, kind, _, _) in RESOURCES.items():
        items = doc.get(plural) or []
        for o in items:
            o.setdefault("kind", kind)
            group, version = RESOURCES[plural][0], RESOURCES[plural][1]
            o.setdefault("apiVersion", group + "/" + version if group else "v1")
        store[plural] = items
    rv = str(max([int((o.get("metadata") or {}).get("resourceVersion") or 0)
                  for items in store.values() for o in items] + [1]))

    base = time.time()
    shift = dt.datetime.fromtimestamp(base, dt.timezone.utc) - sim_now
    shift_objects(store, shift)

    log = open(args.log, "a") if args.log else None
    port_holder = [0]
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(
        store, Tables(sim_now, shift), log, port_holder, rv, doc.get("reply")))
    server.daemon_threads = True
    port_holder[0] = server.server_address[1]

    def suicide():
        time.sleep(args.lifetime)
        os._exit(3)

    threading.Thread(target=suicide, daemon=True).start()
    if args.base_file:
        with open(args.base_file + ".tmp", "w") as f:
            f.write("%.6f\n" % base)
        os.replace(args.base_file + ".tmp", args.base_file)
    with open(args.port_file + ".tmp", "w") as f:
        f.write("%d\n" % port_holder[0])
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())

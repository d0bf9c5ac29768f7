#!/usr/bin/env python3
"""Writes src/sim/schema/types.rs: the shape of every kind the simulator stores, read from
the Go types Kubernetes itself is built from.

    gen_schema.py CORE_V1_TYPES.go APPS_V1_TYPES.go POLICY_V1_TYPES.go BATCH_V1_TYPES.go \
        META_V1_TYPES.go AUTOSCALING_V2_TYPES.go ADMISSIONREGISTRATION_V1_TYPES.go \
        APIEXTENSIONS_V1_TYPES.go APIEXTENSIONS_V1_TYPES_JSONSCHEMA.go > src/sim/schema/types.rs

The seven files are k8s.io/api v0.32.0 core/v1/types.go, apps/v1/types.go,
policy/v1/types.go, batch/v1/types.go, autoscaling/v2/types.go and
admissionregistration/v1/types.go,
k8s.io/apimachinery v0.32.0 pkg/apis/meta/v1/types.go, and k8s.io/apiextensions-apiserver
v0.32.0 pkg/apis/apiextensions/v1/types.go and types_jsonschema.go, for example:

    git -C kubernetes/api show v0.32.0:core/v1/types.go > core.go

What it reads of each struct: the JSON name of each field (its `json:"..."` tag), whether
the field is inlined (`json:",inline"`: its fields join the parent's, as encoding/json and
the API server's decoders do), and its Go type, reduced to the shape a decoder sees: a
scalar (strings, numbers, booleans, and the types with their own JSON form: Time,
Quantity, IntOrString, []byte), a struct, a list or a map of one of those, or an open
value (FieldsV1, RawExtension: any JSON). Standard library only.
"""

import re
import sys

ROOTS = [
    ("DEPLOYMENT", "Deployment"),
    ("REPLICA_SET", "ReplicaSet"),
    ("POD", "Pod"),
    ("NODE", "Node"),
    ("POD_DISRUPTION_BUDGET", "PodDisruptionBudget"),
    ("SERVICE", "Service"),
    ("STATEFUL_SET", "StatefulSet"),
    ("PERSISTENT_VOLUME_CLAIM", "PersistentVolumeClaim"),
    ("DAEMON_SET", "DaemonSet"),
    ("JOB", "Job"),
    ("CRON_JOB", "CronJob"),
    ("HORIZONTAL_POD_AUTOSCALER", "HorizontalPodAutoscaler"),
    ("VALIDATING_WEBHOOK_CONFIGURATION", "ValidatingWebhookConfiguration"),
    ("MUTATING_WEBHOOK_CONFIGURATION", "MutatingWebhookConfiguration"),
    ("VALIDATING_ADMISSION_POLICY", "ValidatingAdmissionPolicy"),
    ("VALIDATING_ADMISSION_POLICY_BINDING", "ValidatingAdmissionPolicyBinding"),
    ("CUSTOM_RESOURCE_DEFINITION", "CustomResourceDefinition"),
]

# Types with their own JSON form, which a decoder takes whole.
SCALARS = {
    "string", "bool", "int", "int32", "int64", "float32", "float64", "byte",
    "Time", "MicroTime", "Quantity", "IntOrString", "UID", "Duration",
}
# apiextensions' JSON (any value) and the schema unions with a JSON form of their own.
OPEN = {"FieldsV1", "RawExtension", "JSON", "JSONSchemaPropsOrArray", "JSONSchemaPropsOrBool",
        "JSONSchemaPropsOrStringArray"}

STRUCT_RE = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.S | re.M)
ALIAS_RE = re.compile(r"^type (\w+) ([\w\[\]\*\.]+(?:\[[\w\.]+\][\w\.\*\[\]]+)?)\s*$", re.M)
FIELD_RE = re.compile(r"^\t(?:(\w+)\s+)?([\w\[\]\*\.]+)\s+`([^`]*)`", re.M)


def read(paths):
    structs, aliases = {}, {}
    for path in paths:
        text = open(path, encoding="utf-8").read()
        for m in STRUCT_RE.finditer(text):
            fields = []
            for f in FIELD_RE.finditer(m.group(2)):
                name, gotype, tag = f.groups()
                j = re.search(r'json:"([^"]*)"', tag)
                if not j:
                    continue
                jname = j.group(1).split(",")[0]
                inline = ",inline" in j.group(1)
                if jname == "-":
                    continue
                fields.append((jname, gotype, inline, name))
            structs.setdefault(m.group(1), fields)
        # `type X struct{}`: an object with no fields.
        for m in re.finditer(r"^type (\w+) struct\{\}\s*$", text, re.M):
            structs.setdefault(m.group(1), [])
        for m in ALIAS_RE.finditer(text):
            aliases.setdefault(m.group(1), m.group(2))
    return structs, aliases


def base(gotype):
    return gotype.split(".")[-1]


class Gen:
    def __init__(self, structs, aliases):
        self.structs, self.aliases = structs, aliases
        self.order, self.seen = [], set()

    def resolve(self, gotype):
        """A Go type as a shape: ("scalar",), ("open",), ("struct", T), ("list", elem),
        ("map", elem), where elem is ("scalar",) or ("struct", T)."""
        t = gotype.lstrip("*")
        if t.startswith("[]"):
            inner = t[2:]
            if inner == "byte":
                return ("scalar",)
            if self.resolve(inner) == ("open",):
                return ("open",)
            return ("list", self.elem(inner))
        if t.startswith("map["):
            inner = t[t.index("]") + 1:]
            if self.resolve(inner) == ("open",):
                return ("open",)
            return ("map", self.elem(inner))
        name = base(t)
        if name in OPEN:
            return ("open",)
        if name in SCALARS:
            return ("scalar",)
        if name in self.structs:
            self.visit(name)
            return ("struct", name)
        if name in self.aliases:
            return self.resolve(self.aliases[name])
        raise SystemExit(f"gen_schema: no definition for Go type {gotype!r}")

    def elem(self, gotype):
        shape = self.resolve(gotype)
        if shape[0] not in ("scalar", "struct"):
            raise SystemExit(f"gen_schema: a list or map of {gotype!r} is not a shape this file models")
        return shape

    def fields(self, name):
        """The JSON fields of a struct, inlined ones flattened, in Go's order."""
        out = []
        for jname, gotype, inline, _ in self.structs[name]:
            if inline or jname == "":
                out.extend(self.fields(base(gotype.lstrip("*"))))
            else:
                out.append((jname, self.resolve(gotype)))
        return out

    def visit(self, name):
        if name in self.seen:
            return
        self.seen.add(name)
        self.order.append((name, self.fields(name)))


def const_name(name):
    """HTTPGetAction -> HTTP_GET_ACTION."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).upper()


def rust_shape(shape):
    kind = shape[0]
    if kind == "scalar":
        return "Scalar"
    if kind == "open":
        return "Open"
    if kind == "struct":
        return f"Struct(&{const_name(shape[1])})"
    inner = "Elem::Scalar" if shape[1][0] == "scalar" else f"Elem::Struct(&{const_name(shape[1][1])})"
    return f"{'List' if kind == 'list' else 'Map'}({inner})"


def main():
    structs, aliases = read(sys.argv[1:])
    gen = Gen(structs, aliases)
    for _, root in ROOTS:
        gen.visit(root)
    out = [
        "//! The shapes of the kinds the simulator stores, one static per Go struct, generated by",
        "//! tests/oracle/gen_schema.py from k8s.io/api v0.32.0 (core/v1, apps/v1, policy/v1, batch/v1, autoscaling/v2,",
        "//! admissionregistration/v1), k8s.io/apimachinery v0.32.0 (meta/v1) and",
        "//! k8s.io/apiextensions-apiserver v0.32.0 (apiextensions/v1) types. Do not edit: run the script.",
        "//! Longer than the house's 800 lines because it is data: one line per field.",
        "",
        "use super::{Elem, Field, Shape::*, Type};",
        "",
    ]
    for name, fields in sorted(gen.order):
        out.append(f"pub static {const_name(name)}: Type = Type {{")
        out.append(f'    name: "{name}",')
        out.append("    fields: &[")
        for jname, shape in fields:
            out.append(f'        Field("{jname}", {rust_shape(shape)}),')
        out.append("    ],")
        out.append("};")
        out.append("")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()

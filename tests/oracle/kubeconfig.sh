#!/usr/bin/env bash
# Prints a kubeconfig for the fake API server: kubeconfig.sh PORT > FILE
# Plain HTTP on 127.0.0.1, no credentials, namespace default.
set -eu
port=${1:?usage: kubeconfig.sh PORT}
cat <<YAML
apiVersion: v1
kind: Config
clusters:
- name: oracle
  cluster:
    server: http://127.0.0.1:${port}
users:
- name: oracle
  user: {}
contexts:
- name: oracle
  context:
    cluster: oracle
    user: oracle
    namespace: default
current-context: oracle
preferences: {}
YAML

#!/usr/bin/env bash
# Checks deploy/kubernetes-indexed-job.yaml against the Kubernetes API schemas, offline,
# with kubernetes-validate (PyPI; its schemas ship with it), installed into a virtualenv
# under .build/ so that nothing is installed system-wide. Also checks what the schemas
# cannot: that `--shard auto/N` names the Job's `completions`. Called by `make test`
# (through make test-deploy, which installs python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/kubernetes-validate
version=1.37.0
if ! "$venv/bin/kubernetes-validate" --version 2>/dev/null | grep -q "$version"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$version"
fi
file=deploy/kubernetes-indexed-job.yaml
# Every Kubernetes release from the first with backoffLimitPerIndex to the newest known.
for kubernetes in 1.29.0 1.31.0 1.33.0 1.37.0; do
    "$venv/bin/kubernetes-validate" --strict --kubernetes-version "$kubernetes" "$file"
done
"$venv/bin/python" - "$file" <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
spec = job["spec"]
args = spec["template"]["spec"]["containers"][0]["args"]
shard = args[args.index("--shard") + 1]
assert spec["completionMode"] == "Indexed", "not an Indexed Job"
assert shard == f"auto/{spec['completions']}", f"--shard {shard} does not match completions: {spec['completions']}"
assert spec["parallelism"] <= spec["completions"]
print(f"{sys.argv[1]}: --shard {shard} matches completions: {spec['completions']}")
PY

#!/usr/bin/env bash
# Checks deploy/kubernetes-indexed-job.yaml against the Kubernetes API schemas, offline,
# with kubernetes-validate (PyPI; its schemas ship with it), from the virtualenv that
# `make deps-service` fills under .build/ (nothing is installed system-wide). Also checks
# what the schemas cannot: that `--shard auto/N` names the Job's `completions`. Called by
# `make test` (through make test-deploy).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/service-venv
if ! [ -x "$venv/bin/kubernetes-validate" ]; then
    echo "validate-kubernetes: $venv/bin/kubernetes-validate is missing; run make deps-service" >&2
    exit 1
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

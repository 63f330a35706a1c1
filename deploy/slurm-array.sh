#!/bin/bash
# snap-poem on a Slurm cluster: one job array, each task reads its own shard of a folder.
#
#   sbatch --array=1-8 deploy/slurm-array.sh /shared/poems /shared/texts [snap-poem options...]
#
# Each task runs `snap-poem INPUT --output-dir OUTPUT --shard auto`: snap-poem takes K and N
# from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT (arrays numbered from 0 or 1, or in
# steps, all work), writes one file per image into OUTPUT and its own manifest,
# OUTPUT/manifest.shard-K-of-N.jsonl, so tasks sharing the folder never write the same
# file. A task exits 1 if any of its images failed (Slurm marks it FAILED); the others go
# on. Submitting the same array again resumes: each task skips what its shard finished.
# When all tasks are done, check the whole batch:
#
#   snap-poem /shared/poems --output-dir /shared/texts --check-manifests
#
# Each task reads --jobs images at once (one worker process and Tesseract engine each,
# about 150-450 MB apiece), as many as the CPUs Slurm gave it.
# The snap-poem executable: $SNAP_POEM if set, else snap-poem on the PATH.
#SBATCH --job-name=snap-poem
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --output=snap-poem-%A_%a.log
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "usage: sbatch [--array=1-N] $0 INPUT_DIR OUTPUT_DIR [snap-poem options...]" >&2
    exit 64
fi
input=$1
output=$2
shift 2

exec "${SNAP_POEM:-snap-poem}" "$input" --output-dir "$output" --shard auto \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --progress none "$@"

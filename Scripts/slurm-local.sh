#!/usr/bin/env bash
# Runs deploy/slurm-array.sh on a real one-node Slurm cluster, started just for this and
# stopped again: munged, slurmctld and slurmd (Debian 12's munge 0.5.15 and Slurm 22.05),
# with the munge key, sockets, slurm.conf, state, spool and logs in a temporary folder (no
# file under /etc is read or written: munged gets --key-file/--socket/..., every Slurm
# program SLURM_CONF). The array reads a folder of sample images in 3 shards; the shard
# manifests must then cover the folder exactly once (snap-poem --check-manifests).
#
# Needs root (the daemons run as root, SlurmUser=root) and `make deps-deploy`. Every daemon
# started here runs in the foreground as a child of this script and is stopped by its pid on
# exit, also on failure or Ctrl-C. Called by `make test` (through make test-deploy).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin=${SNAP_POEM:-$(swift build --show-bin-path)/snap-poem}
[ -x "$bin" ] || { echo "slurm-local: $bin is missing; run make build first" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "slurm-local: needs root (the Slurm daemons run as root here)" >&2; exit 1; }
for program in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$program" >/dev/null || { echo "slurm-local: $program is missing; run make deps-deploy" >&2; exit 1; }
done

work=$(mktemp -d /tmp/snap-poem-slurm.XXXXXX)
pids=()
finish() {
    local status=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "$status" -ne 0 ]; then
        echo "slurm-local: failed (status $status); the daemons' logs:" >&2
        tail -n 20 "$work"/*.log "$work"/*.out "$work"/munge/*.log 2>/dev/null >&2 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

# Waits until "$@" succeeds, for at most $timeout seconds.
wait_for() {
    local timeout=$1 what=$2
    shift 2
    for _ in $(seq 1 $((timeout * 5))); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.2
    done
    echo "slurm-local: $what did not happen within $timeout s" >&2
    return 1
}

# A free TCP port: nothing answers on it.
free_port() {
    local port
    for _ in $(seq 1 50); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
    done
    echo "slurm-local: no free port found" >&2
    return 1
}

host=$(hostname -s)
chmod 755 "$work"   # munged requires its socket's folders to be searchable by everyone
mkdir -m 755 "$work/munge"
mkdir -p "$work/state" "$work/spool" "$work/output" "$work/poems"
mungekey --create --keyfile "$work/munge/munge.key"
munged --foreground --key-file "$work/munge/munge.key" --socket "$work/munge/munge.socket" \
    --pid-file "$work/munge/munged.pid" --log-file "$work/munge/munged.log" --seed-file "$work/munge/munged.seed" \
    >"$work/munged.out" 2>&1 &
pids+=($!)
wait_for 10 "munged's socket" test -S "$work/munge/munge.socket"

controller_port=$(free_port)
node_port=$(free_port)
cat >"$work/slurm.conf" <<CONF
ClusterName=snappoem
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$controller_port
SlurmdPort=$node_port
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=batch Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -i >"$work/slurmctld.out" 2>&1 &
pids+=($!)
wait_for 20 "slurmctld answering" scontrol ping
slurmd -D >"$work/slurmd.out" 2>&1 &
pids+=($!)
wait_for 30 "the node to be idle" bash -c '[ "$(sinfo -h -o %T)" = idle ]'

# Eight small sample photos, read in three shards, one CPU each.
cp SampleImages/orientation/orientation-*.jpg "$work/poems/"
job=$(cd "$work" && SNAP_POEM="$bin" sbatch --parsable --array=1-3 --cpus-per-task=1 \
    --output="$work/task-%a.log" "$root/deploy/slurm-array.sh" "$work/poems" "$work/output")
echo "slurm-local: submitted job array $job (3 tasks) to the one-node cluster on $host"
wait_for 300 "the job array to finish" bash -c "[ -z \"\$(squeue -h -j $job)\" ]"
states=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)
echo "slurm-local: task states: $(echo $states)"
if scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | grep -vq 'JobState=COMPLETED'; then
    cat "$work"/task-*.log >&2
    echo "slurm-local: a task did not complete" >&2
    exit 1
fi
ls "$work/output"/manifest.shard-{1,2,3}-of-3.jsonl >/dev/null
"$bin" "$work/poems" --output-dir "$work/output" --check-manifests
echo "slurm-local: ok: 3 array tasks covered the folder exactly once"

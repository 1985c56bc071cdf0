# slurm.sh - docs/sweeps.md's sbatch array script on a real single-node
# Slurm (Debian's slurm-wlm and munge): munged, slurmctld and slurmd are
# started here as root with a configuration of their own under $T (their
# own ports, socket, spool and state; no system file touched), the array
# is submitted with sbatch, and its shards merged must be the unsharded
# sweep's records byte for byte.  Every daemon started is stopped (by its
# PID) and waited for at exit.  Skipped unless root with the packages
# (.ci/run installs them).  About 3 s.

t "sweeps.md: sbatch array on a real one-node Slurm = one sweep"
if [ "$(id -u)" != 0 ]; then
	skip "not root (slurmctld and slurmd run as root here)"
elif ! needs munged slurmctld slurmd sbatch squeue sinfo; then
	:
else
	S=$T/slurm
	mkdir -p "$S/state" "$S/spool" "$S/log" "$S/job"
	daemons=""
	slurm_stop() {
		# shellcheck disable=SC2086
		[ -n "$daemons" ] && kill $daemons 2>/dev/null && wait $daemons 2>/dev/null
		daemons=""
	}
	trap 'slurm_stop; rm -rf "$T"' EXIT
	# ports of this run's own, away from Slurm's 6817/6818
	port=$((20000 + $$ % 20000 * 2))
	cat >"$S/slurm.conf" <<CONF
ClusterName=pagelabtest
SlurmctldHost=localhost
AuthType=auth/munge
AuthInfo=socket=$S/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=localhost CPUs=8 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
	# 8 CPUs declared (config_overrides): the script's 4 tasks of
	# --cpus-per-task=2 run at once, in one scheduling pass
	export SLURM_CONF="$S/slurm.conf"
	dd if=/dev/urandom of="$S/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$S/munge.key"
	munged -F -f --key-file="$S/munge.key" --socket="$S/munge.sock" --pid-file="$S/munged.pid" \
		--log-file="$S/log/munged.log" --seed-file="$S/munged.seed" 2>>"$S/log/err" &
	daemons="$!"
	for _i in $(seq 50); do [ -S "$S/munge.sock" ] && break; sleep 0.1; done
	slurmctld -D -c -f "$S/slurm.conf" >>"$S/log/err" 2>&1 &
	daemons="$daemons $!"
	slurmd -D -N localhost -f "$S/slurm.conf" >>"$S/log/err" 2>&1 &
	daemons="$daemons $!"
	for _i in $(seq 100); do [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break; sleep 0.1; done

	small='SWEEP="--policy splitlru,mglru --ram 10M,12M --seeds 2 -- qsbench -p 2 -m 2"'
	sed -n '/^<!-- sbatch-example -->/,/^<!-- \/sbatch-example -->/p' "$(dirname "$0")/../docs/sweeps.md" |
		sed '1,2d;$d' | sed '$d' | sed "s/^SWEEP=.*/$small/" >"$S/job/sweep.sbatch"
	ln -sf "$(cd "$(dirname "$P")" && pwd)/$(basename "$P")" "$T/pagelab"
	eval "$small"
	msg=""
	# sbatch exports this environment (PATH with pagelab) to the tasks
	id=$(cd "$S/job" && PATH="$T:$PATH" sbatch --parsable -o /dev/null -e "$S/log/task-%a.err" sweep.sbatch 2>&1) ||
		msg="sbatch: $id;"
	# the array leaves the queue when its tasks are done (at most 60 s)
	for _i in $(seq 600); do [ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break; sleep 0.1; done
	[ -z "$(squeue -h -j "$id" 2>/dev/null)" ] || msg="$msg job $id still queued;"
	# shellcheck disable=SC2086
	(cd "$S/job" && PATH="$T:$PATH" pagelab merge results.jsonl shard1.jsonl shard2.jsonl shard3.jsonl \
		shard4.jsonl && PATH="$T:$PATH" pagelab sweep --no-progress --jobs 1 -o one.jsonl $SWEEP >/dev/null) \
		2>>"$S/log/err" || msg="$msg merge or sweep failed: $(head -1 "$S/log/err");"
	[ -s "$S/job/results.jsonl" ] && cmp -s "$S/job/results.jsonl" "$S/job/one.jsonl" ||
		msg="$msg merged shards differ from one sweep;"
	slurm_stop
	[ -z "$msg" ] && ok || bad "$msg $(cat "$S"/log/task-*.err 2>/dev/null | head -2)"
fi

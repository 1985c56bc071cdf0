# pagelab kernel --host: the host settings a kernel run records (record.c
# record_put_host()), printed without a run, no root (tests/cli_lib.sh's
# _khost writes its hand-made records with it).  Under 0.1 s.

t "kernel --host: one JSON object, this host's CPUs and release, no root"
$P kernel --host >"$T/kh" 2>"$T/kh.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/kh.err")"
[ -s "$T/kh.err" ] && msg="$msg; stderr: $(cat "$T/kh.err")"
[ "$(wc -l <"$T/kh")" -eq 1 ] || msg="$msg; not one line: $(cat "$T/kh")"
grep -q "^{\"cpus\": $(getconf _NPROCESSORS_ONLN), \"release\": \"$(uname -r)\"" "$T/kh" ||
	msg="$msg; cpus/release: $(cat "$T/kh")"
grep -q '}$' "$T/kh" || msg="$msg; not an object: $(cat "$T/kh")"
# free memory and the file LRUs (global_dirtyable_memory()), in KiB
[ ! -r /proc/meminfo ] || grep -q '"dirtyable_kb": [1-9][0-9]*}$' "$T/kh" || msg="$msg; no dirtyable_kb: $(cat "$T/kh")"
for k in dirty_ratio dirty_expire_centisecs; do
	v=$(cat "/proc/sys/vm/$k" 2>/dev/null) || continue
	grep -q "\"$k\": $v[,}]" "$T/kh" || msg="$msg; no \"$k\": $v"
done
[ -z "$msg" ] && ok || bad "$msg"

t "kernel --host: a record made with it names this host, so compare is quiet"
mkdir -p "$T/khr"
kernel_record 1 "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 40" c:pswpout=0 >"$T/khr/kernel.jsonl"
# The dirtyable memory is a reading of free memory: it moves between two.
nodirt() { sed 's/, "dirtyable_kb": [0-9]*//'; }
nodirt <"$T/khr/kernel.jsonl" | grep -q "\"host\": $(nodirt <"$T/kh")" && ok || bad "record: $(head -c 300 "$T/khr/kernel.jsonl")"

# The layers' include rule (docs/architecture.md, issue 37): a layer includes
# only from the layers below it.  src/lib is the bottom and includes from
# no other layer; src/trace sits on src/lib alone; the mm core (src/mm)
# includes only src/lib: what it needs of a policy is declared in its own
# src/mm/policy_ops.h, so src/policy (which includes src/mm) is above it;
# src/policy includes only src/mm, src/lib and the plugin ABI of the
# public headers (include/pagelab_policy.h, named as ".." below).  Reads the sources, runs
# no binary.  Cost: well under 1 s.

S="$(dirname "$0")/../src"

# upward DIR ALLOWED...: the #include lines of src/DIR (and of its
# folders, e.g. src/policy/mglru/) naming a file of another layer that is
# not DIR and not one of ALLOWED.  An include is resolved from the
# including file's folder; its layer is the first folder under src/ ("..",
# for the public headers of include/).
upward() {
	dir=$1; shift
	find "$S/$dir" -name '*.[ch]' | sort | xargs grep -Hn \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./' |
	while IFS= read -r line; do
		file=${line%%:*}
		inc=$(printf '%s\n' "$line" | sed 's|.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*|\1|')
		path=$(cd "$(dirname "$file")" && realpath -m "$inc")
		src=$(cd "$S" && pwd -P)
		case $path in
		"$src"/*) layer=${path#"$src"/}; layer=${layer%%/*} ;;
		*) layer=.. ;;
		esac
		ok_layer=0
		for a in "$dir" "$@"; do [ "$layer" = "$a" ] && ok_layer=1; done
		[ $ok_layer = 1 ] || printf '%s\n' "$line"
	done
}

layer_rule() {
	t "layers: src/$1 includes no layer above it"
	# shellcheck disable=SC2086
	hits=$(upward $1 $2)
	if [ ! -d "$S/$1" ]; then bad "no $S/$1"
	elif [ -z "$hits" ]; then ok
	else bad "$(printf '%s\n' "$hits" | head -3 | tr '\n' ' ')"
	fi
}

layer_rule lib ""
layer_rule trace "lib"
layer_rule mm "lib"
layer_rule policy "mm lib .."
# the experiment engine runs machines; reproduce sits on the engine, never
# the other way round
layer_rule engine "lib trace mm policy workload machine cachesim report native"
layer_rule reproduce "lib trace mm policy workload machine cachesim report native engine"
# the other rows of docs/architecture.md's diagram: a workload never sees
# frames (it sits on the trace readers alone), the machine runs workloads
# and policies on the mm core, reports and the cache-only replay read a
# machine, the host-kernel executor fills what they read; mrc and the
# library sit on the engine (the library also on the public headers, "..")
layer_rule workload "lib trace"
layer_rule machine "lib trace mm policy workload"
layer_rule report "lib trace mm policy workload machine"
layer_rule cachesim "lib trace mm policy workload machine"
layer_rule native "lib trace mm policy workload machine report cachesim"
layer_rule mrc "lib trace mm policy workload machine report cachesim native engine"
layer_rule api "lib trace mm policy workload machine report cachesim native engine .."

t "no file under src/mm includes \"../policy/"
if grep -rn '#[[:space:]]*include[[:space:]]*"\.\./policy/' "$S/mm" >"$T/mm_policy"; then
	bad "$(head -1 "$T/mm_policy")"
else ok
fi

# A policy changes how the core behaves through its policy_ops (flags,
# tunable_flags()) or a call into mm (mm_wake_kswapd(), mm_want_oom(),
# mm_flusher_era()), never by writing a field of struct mm: the one
# exception is struct vm_sysctl (mm->vm.NAME), the era's sysctl defaults a
# policy's init() may set and --set vm.NAME overrides (mm.h); and a
# policy counts its own /proc/vmstat events (mm->ev[PGACTIVATE]++), which
# only reports what it did.
t "src/policy writes no struct mm field but vm.NAME, ev[]"
S_POL="$S/policy"
# mm->NAME, mm->PART.NAME (the fault in progress, mm->fault, is the
# core's to write: a policy only reads it) and mm->PART.NAME[i].
grep -nE 'mm->[a-z_]+(\.[a-z_]+)*(\[[^]]*\])?[[:space:]]*([-+|&^]?=[^=]|\+\+|--)' \
	$(find "$S_POL" -name '*.[ch]' | sort) | grep -v -e 'mm->vm\.' -e 'mm->ev\[' >"$T/pol_writes"
if [ -s "$T/pol_writes" ]; then
	bad "$(head -1 "$T/pol_writes")"
else ok
fi

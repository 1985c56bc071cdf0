# The shared library of the CLI tests (POSIX sh), sourced at the start of
# every area file's shell by tests/cli_area.sh, and by tests/installcheck.sh.
# It gives a test file:
#   P            the pagelab binary ($PAGELAB, default ./pagelab)
#   T            a temporary directory of its own, removed at exit
#   t "desc"     start a check; then exactly one of
#   ok           it passed
#   bad "why"    it failed (sets fail=1)
#   skip "why"   it could not run here: a missing tool or privilege
#   counter NAME FILE   a /proc/vmstat counter of a report (-1 if absent)
#   kernel_record N ARGS [FIELD...]   a hand-written kernel run's record
#   needs WHAT...  true when every tool (codec:NAME: codec) is there, else
#                skip "no WHAT" and false
#   have CMD     CMD is on PATH
#   codec NAME   pagelab was built with that compression codec
#   ZSH_RE, GNU_RE, vmstat_near_watermarks FILE   a report's time lines
#                and vmstat
# Each of ok / bad / skip also appends a line to $PAGELAB_RESULTS (when
# set) for the summary tests/cli.sh prints at the end:
#   pass<TAB>desc / fail<TAB>desc<TAB>why / skip<TAB>desc<TAB>why

P=${PAGELAB:-./pagelab}
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# A trap that did not exit would let the script go on after ^C or a kill.
trap 'exit 130' INT
trap 'exit 143' TERM
fail=0
_t_desc=""

t() { _t_desc=$1; printf '%-64s' "$1"; }

# _t_record KIND [WHY]: one line of the results file; WHY cut to its
# first non-empty line (a reason may be a whole report).
_t_record() {
	[ -n "${PAGELAB_RESULTS:-}" ] || return 0
	if [ $# -gt 1 ]; then
		printf '%s\t%s\t%s\n' "$1" "$_t_desc" "$(printf '%s\n' "$2" | awk 'NF { print substr($0, 1, 160); exit }')"
	else
		printf '%s\t%s\n' "$1" "$_t_desc"
	fi >>"$PAGELAB_RESULTS"
}
ok() { echo ok; _t_record pass; }
bad() { echo "FAILED: $1"; fail=1; _t_record fail "$1"; }
skip() { echo "skipped: $1"; _t_record skip "$1"; }

# unprivileged CMD...: CMD as a user without root, its stdout and stderr
# wherever the caller redirects them: when the tests run as root, as
# nobody through setpriv with T opened to it for the run; otherwise as
# they are.  Sets urc to its exit status, or to "skip" (root without
# setpriv: skip "root without setpriv").
unprivileged() {
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
		chmod 755 "$T"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
		urc=$?
		chmod 700 "$T"
	elif [ "$(id -u)" -ne 0 ]; then
		"$@"
		urc=$?
	else
		urc=skip
	fi
}

# kernel_record N ARGS [FIELD...]: run N of `pagelab kernel ARGS` as a
# line of compare's kernel records file (DIR/kernel.jsonl: the sweep's
# records, src/engine/record.c, "executor": "kernel"), named as the kernel
# executor names it with its revision (NATIVE_EXECUTOR_REV,
# src/native/native.h).  FIELDs: user=S sys=S (CPU seconds), warmed,
# c:NAME=V (/proc/vmstat), m:NAME=V (memory.stat), t:NAME=V (traced).
kernel_record() {
	_kn=$1 _ka=$2 _ku=0 _ks=0 _kw=false _kc= _km= _kt=
	shift 2
	for _f; do
		_kv="\"${_f#*:}" _kv="${_kv%%=*}\": ${_f#*=}"
		case $_f in
		user=*) _ku=${_f#user=} ;;
		sys=*) _ks=${_f#sys=} ;;
		warmed) _kw=true ;;
		c:*) _kc="$_kc${_kc:+, }$_kv" ;;
		m:*) _km="$_km${_km:+, }$_kv" ;;
		t:*) _kt="$_kt${_kt:+, }$_kv" ;;
		esac
	done
	printf '{"cell": %d, "cmd": "pagelab kernel %s # run %d, executor 7", "design": "kernel", ' \
		"$((_kn - 1))" "$_ka" "$_kn"
	printf '"config": "", "seed": 1, "executor": "kernel", "available": true, "finished": true, '
	printf '"user_s": %s, "sys_s": %s, "counters": {%s}, "kernel": {"cgroup_version": 1, ' "$_ku" "$_ks" "$_kc"
	printf '"warmed": %s, %s"memory_stat": {%s}, "traced": {%s}}}\n' "$_kw" "$(_khost)" "$_km" "$_kt"
}

# _khost: '"host": {...}, ' as a kernel run on this host records it
# (record.c record_put_host(), printed by pagelab kernel --host), so that
# compare simulates this host for the record (src/engine/kcompare_rechost.c)
# and says nothing about it.
_khost() {
	[ -n "${_kh:-}" ] || _kh=$("$P" kernel --host)
	printf '"host": %s, ' "$_kh"
}

# counter NAME FILE: the value of a /proc/vmstat counter in a report.
counter() { awk -v n="$1" '$1 == n && NF == 2 { print $2; f = 1 } END { if (!f) print -1 }' "$2"; }

have() { command -v "$1" >/dev/null 2>&1; }

# codec NAME: pagelab --version names its codecs, "(zstd, zlib)", and a
# missing one as "no NAME"; a version line that names none has them all.
codec() { ! "$P" --version 2>/dev/null | grep -q "no $1\\b"; }

# needs WHAT...: true when this host has every WHAT: a command on PATH, or
# codec:NAME, a codec pagelab was built with; else the check is skipped
# with the first one missing as the reason.  Use:
#   t "desc"
#   if needs zstd codec:zstd; then ...; ok or bad; fi
needs() {
	for w in "$@"; do
		case $w in
		codec:*) codec "${w#codec:}" || { skip "pagelab was built without ${w#codec:}"; return 1; } ;;
		man) have man || { skip "no man (Debian's man-db)"; return 1; } ;;
		*) have "$w" || { skip "no $w (Debian's $w)"; return 1; } ;;
		esac
	done
}

# The time lines of a report (zsh's and GNU time's) and vmstat against the
# watermarks: core.sh's, and any file's (they were tests/cli.sh's).
ZSH_RE='^usemem -m [0-9]+  [0-9]+\.[0-9][0-9]s user [0-9]+\.[0-9][0-9]s system [0-9]+% cpu ([0-9]+:)?[0-9]+\.[0-9]+ total$'
GNU_RE='^[0-9]+\.[0-9][0-9]user [0-9]+\.[0-9][0-9]system [0-9]+:[0-9][0-9](\.[0-9][0-9]|:[0-9][0-9])elapsed [0-9]+%CPU \([0-9]+major\+[0-9]+minor\)pagefaults [0-9]+swaps$'

# vmstat_near_watermarks FILE: every vmstat line sampled while swapping out
# (so > 0) has free between half of min and twice high (the watermarks
# line gives them in pages; vmstat prints kB); at least one such line.
vmstat_near_watermarks() {
	awk '
	/^pagelab: watermarks min/ { min = $4 * 4; high = $8 * 4 }
	NF == 16 && $1 ~ /^[0-9]+$/ && $16 ~ /^[0-9]+$/ {
		if ($8 > 0) {
			n++
			if ($4 < min / 2 || $4 > high * 2) { print "free " $4 " kB outside [" min/2 ", " high*2 "]"; badl++ }
		}
	}
	END { if (!min) { print "no watermarks line"; exit 1 }
	      if (!n) { print "no vmstat line with so > 0"; exit 1 }
	      exit badl ? 1 : 0 }' "$1"
}

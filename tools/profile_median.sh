#!/bin/sh
# profile_median.sh FILE... - the median of several measurements of this
# host (tools/fidelity.sh): each FILE is either a machine profile
# `pagelab kernel --calibrate` wrote or the one line of `--set` words
# `pagelab kernel --tlb-cost` prints (NAME=VALUE ...).  Prints the first
# FILE with each cost's value the median of the FILEs' values of it (the
# middle one of an odd count, the lower of the two middle ones of an
# even count, so every value printed is one that was measured), each
# profile cost under a line giving all of them.  A value without an ns
# suffix, or one the other files lack, is the first file's.  Why: two
# --calibrate runs minutes apart on an idle host moved some costs by a
# third (docs/fidelity.md, "One calibration is not the host"), where the
# kernel's own runs held still.
set -u
[ $# -ge 1 ] || { echo "usage: profile_median.sh FILE..." >&2; exit 2; }
for f in "$@"; do
	[ -r "$f" ] || { echo "profile_median: cannot read $f" >&2; exit 2; }
done
awk '
	function ns(v) { return v ~ /^[0-9]+ns$/ ? substr(v, 1, length(v) - 2) + 0 : -1 }
	# the median of the values of KEY (n of them, in val[KEY, 1..n])
	function median(key, n,    i, j, t, a) {
		for (i = 1; i <= n; i++)
			a[i] = val[key, i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return a[int((n + 1) / 2)]
	}
	FNR == 1 { file++ }
	# a profile line: NAME = VALUE
	NF == 3 && $2 == "=" && $1 ~ /^cost\./ {
		if (ns($3) >= 0)
			val[$1, ++cnt[$1]] = ns($3)
		if (file == 1)
			line[++nl] = $0
		next
	}
	# the --tlb-cost line: NAME=VALUE words
	/^cost\.[a-z_]+=/ {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (ns(kv[2]) >= 0)
				val[kv[1], ++cnt[kv[1]]] = ns(kv[2])
		}
		if (file == 1)
			line[++nl] = $0
		next
	}
	file == 1 { line[++nl] = $0 }
	END {
		for (l = 1; l <= nl; l++) {
			s = line[l]
			if (s ~ /^cost\.[a-z_]+ = /) {
				split(s, w, " ")
				if (ns(w[3]) >= 0 && cnt[w[1]] == file) {
					list = ""
					for (i = 1; i <= file; i++)
						list = list (i > 1 ? ", " : "") val[w[1], i]
					printf "#   (the median of %d runs of --calibrate: %s ns)\n", file, list
					s = w[1] " = " median(w[1], file) "ns"
				}
			} else if (s ~ /^cost\.[a-z_]+=/) {
				n = split(s, words, " ")
				s = ""
				for (i = 1; i <= n; i++) {
					split(words[i], kv, "=")
					if (ns(kv[2]) >= 0 && cnt[kv[1]] == file)
						words[i] = kv[1] "=" median(kv[1], file) "ns"
					s = s (i > 1 ? " " : "") words[i]
				}
			}
			print s
		}
	}' "$@"

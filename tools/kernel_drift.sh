#!/bin/sh
# kernel_drift.sh OLD.jsonl NEW.jsonl - the kernel against itself: two
# sets of kernel records of the same cases (compare's --kernel-cache
# kernel.jsonl, e.g. docs/fidelity-data's before and after a retake),
# each case's median elapsed and system time in both, and how many cases
# agree within +-25 % of the older median (the matrix's strict rule,
# docs/fidelity.md).  What the simulator's time can be held to is bounded
# by this: a host whose kernel moves by more between two sessions than
# the rule allows cannot be matched on it by any model.  Cases are
# matched by their "config" (the executor revision in "cmd" may differ);
# the records' top-level elapsed_s and sys_s (the run's: the workloads'
# own follow them).  Prints a table and the two counts; exit 2 on bad
# input.
set -u
[ $# -eq 2 ] && [ -r "$1" ] && [ -r "$2" ] || { echo "usage: kernel_drift.sh OLD.jsonl NEW.jsonl" >&2; exit 2; }
awk '
	function field(name,    i, v) {
		i = index($0, "\"" name "\": ")
		if (!i)
			return ""
		v = substr($0, i + length(name) + 4)
		sub(/[,}].*/, "", v)
		return v
	}
	function median(key, which,    n, i, j, t, a) {
		n = split(val[which, key], a, " ")
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FNR == 1 { f++ }
	index($0, "\"design\": \"kernel\"") {
		c = field("config"); e = field("elapsed_s"); s = field("sys_s")
		if (c == "" || e == "" || s == "")
			next
		sub(/^"/, "", c); sub(/"$/, "", c)
		if (!((f, c) in n)) { order[f, ++cnt[f]] = c }
		n[f, c]++
		val[f "e", c] = val[f "e", c] " " e
		val[f "s", c] = val[f "s", c] " " s
	}
	END {
		if (f != 2) { print "kernel_drift: give two record files" > "/dev/stderr"; exit 2 }
		printf "%-40s %13s %13s\n", "case (config, its last 40 characters)", "elapsed", "system"
		for (i = 1; i <= cnt[1]; i++) {
			c = order[1, i]
			if (!((2, c) in n))
				continue
			m++
			e1 = median(c, "1e"); e2 = median(c, "2e"); s1 = median(c, "1s"); s2 = median(c, "2s")
			ok_e = e1 > 0 && e2 / e1 >= 0.75 && e2 / e1 <= 1.25
			ok_s = s1 > 0 && s2 / s1 >= 0.75 && s2 / s1 <= 1.25
			ne += ok_e; ns += ok_s
			printf "%-40s %5.2f>%-5.2f%s %5.2f>%-5.2f%s\n", substr(c, length(c) > 40 ? length(c) - 39 : 1),
				e1, e2, ok_e ? " " : "*", s1, s2, ok_s ? " " : "*"
		}
		if (!m) { print "kernel_drift: no case is in both files" > "/dev/stderr"; exit 2 }
		printf "%d cases in both (old>new medians; *: outside +-25%% of the old)\n", m
		printf "elapsed within +-25%%: %d/%d; system: %d/%d\n", ne, m, ns, m
	}' "$1" "$2"

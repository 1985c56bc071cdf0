# memtier's output (src/workload/memtier.c): the ALL STATS columns stay
# aligned when a figure is wider than memtier's 12 columns.

# col_ends: for each line, the positions past column 6 where a word ends.
col_ends() {
	awk '{ s = ""; for (i = 7; i <= length($0); i++)
		if (substr($0, i, 1) != " " && (i == length($0) || substr($0, i + 1, 1) == " "))
			s = s " " i
		print s }'
}

t "memtier ALL STATS: a 13-digit Ops/sec widens every column"
# 8 threads of one client SET 50 resident items each: over 10^9 ops/sec
# of simulated memory time, 13 characters.
out=$($P run --ram 64M memtier -t 8 -c 1 -n 50 --key-maximum=4095 --preload --ratio=1:0 2>&1 |
	sed -n '/^ALL STATS$/,/^Totals/p')
ends=$(echo "$out" | grep -v '^[-=A]' | col_ends | sort -u)
[ "$ends" = " 20 34 48 62 76" ] && echo "$out" | grep -q '^Sets   1[0-9]\{9\}\.[0-9][0-9] ' &&
[ "$(echo "$out" | grep '^==' | wc -L)" -eq 78 ] && ok || bad "$ends: $out"

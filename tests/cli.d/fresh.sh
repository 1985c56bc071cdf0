# Compressed traces on any build (issues 35, 36).  Sourced by tests/cli.sh:
# uses P, T, t, ok, bad, skip and codec (tests/cli_lib.sh).  --version says which decompressors the
# build has (pagelab VERSION (zstd, zlib) / (no zstd, no zlib)): a
# compressed trace is read with its library and refused in one line
# without it; a stream cut short is never a shorter trace.
# Cost: about 3 s (some 300 runs of trace info on 3000-record traces).

D="$(dirname "$0")/data"
codecs=$($P --version | sed -n 's/^pagelab [^ ]* (\(.*\))$/\1/p')

t "--version says which decompressors are built in"
case $codecs in
"zstd, zlib" | "zstd, no zlib" | "no zstd, zlib" | "no zstd, no zlib") ok ;;
*) bad "'$($P --version)'" ;;
esac

# "1 r\n2 w\n" as the zstd and gzip tools compress it: no tool needed.
printf '\050\265\057\375\004\130\101\000\000\061\040\162\012\062\040\167\012\044\247\176\252' >"$T/two.zst"
printf '\037\213\010\000\000\000\000\000\000\003\063\124\050\342\062\122\050\347\002\000\230\161\146\015\010\000\000\000' >"$T/two.gz"
t "a compressed trace: read with its library, else one line and exit 2"
msg=""
for c in zstd:zstd:libzstd-dev:two.zst gzip:zlib:zlib1g-dev:two.gz; do
	IFS=: read -r kind lib pkg f <<EOF
$c
EOF
	for src in file pipe; do
		if [ $src = file ]; then $P trace info "$T/$f" >"$T/out" 2>"$T/err"; rc=$?; name=$T/$f
		else $P trace info - <"$T/$f" >"$T/out" 2>"$T/err"; rc=$?; name=-; fi
		if codec "$lib"; then
			[ $rc -eq 0 ] && grep -q '^references  2$' "$T/out" || msg="$msg $kind $src: rc $rc $(cat "$T/err");"
		else
			want="pagelab: $name: $kind-compressed trace, but this pagelab was built without $lib (install $pkg and rebuild)"
			[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ] ||
				msg="$msg $kind $src: rc $rc '$(cat "$T/err")';"
		fi
	done
done
[ -z "$msg" ] && ok || bad "$msg"

# Issue 36: a zstd or gzip trace cut short was read as a shorter trace,
# exit 0.  Every format (3000 records of the samples, and the text,
# lackey, block and binary forms of them), compressed with each tool, cut
# at 9 places (the last one byte short) and whole, from a file and
# through a pipe: each cut is exit 2 with one line saying the stream is
# truncated, the whole stream the trace's count.
t "a truncated zstd or gzip stream: exit 2 in every format, file or pipe"
if ! codec zstd || ! codec zlib; then
	skip "this pagelab was built without zstd or zlib ($codecs)"
elif ! command -v zstd >/dev/null || ! command -v gzip >/dev/null; then
	skip "no zstd or gzip tool"
else
	msg=""
	zstd -dcq "$D/cloudPhysicsIO.txt.zst" | head -3000 >"$T/s.txt"
	zstd -dcq "$D/cloudPhysicsIO.csv.zst" | head -3001 >"$T/s.csv"
	zstd -dcq "$D/cloudPhysicsIO.oracleGeneral.bin.zst" | head -c $((24 * 3000)) >"$T/s.oracleGeneral"
	zstd -dcq "$D/cloudPhysicsIO.vscsi.zst" | head -c $((32 * 3000)) >"$T/s.vscsi"
	awk '{ print $1, NR % 3 ? "r" : "w" }' "$T/s.txt" >"$T/s.trace"
	awk '{ printf " %s %s000,4\n", NR % 3 ? "L" : "S", $1 }' "$T/s.txt" >"$T/s.lackey"
	awk 'BEGIN { print "offset,size,op" } { print $1 "000,4096," (NR % 3 ? "r" : "w") }' "$T/s.txt" >"$T/s.block"
	$P trace convert "$T/s.trace" "$T/s.pgtrace" 2>/dev/null || msg="$msg convert failed;"
	for f in txt:txt csv:csv oracleGeneral:oracle vscsi:vscsi trace:text lackey:lackey block:block pgtrace:bin; do
		ext=${f%%:*} fmt=${f#*:}
		full=$($P trace info --format $fmt "$T/s.$ext" 2>&1 | awk '$1 == "references" { print $2 }')
		[ -n "$full" ] && [ "$full" -ge 3000 ] || { msg="$msg $fmt: $full references uncompressed;"; continue; }
		for z in zstd gzip; do
			$z -cq "$T/s.$ext" >"$T/c"
			sz=$(wc -c <"$T/c")
			for cut in $((sz / 10)) $((sz / 5)) $((sz * 3 / 10)) $((sz * 2 / 5)) $((sz / 2)) $((sz * 3 / 5)) \
				$((sz * 4 / 5)) $((sz - 9)) $((sz - 1)) $sz; do
				head -c $cut "$T/c" >"$T/cut"
				for src in file pipe; do
					if [ $src = file ]; then $P trace info --format $fmt "$T/cut" >"$T/out" 2>"$T/err"; rc=$?
					else $P trace info --format $fmt - <"$T/cut" >"$T/out" 2>"$T/err"; rc=$?; fi
					if [ $cut -eq $sz ]; then
						[ $rc -eq 0 ] && grep -q "^references  $full\$" "$T/out" ||
							msg="$msg $fmt $z $src whole: rc $rc $(head -1 "$T/err");"
					elif [ $rc -ne 2 ] || [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" -ne 1 ] ||
						! grep -q ": truncated $z stream\$" "$T/err"; then
						msg="$msg $fmt $z $src cut at $cut of $sz: rc $rc $(head -1 "$T/err");"
					fi
				done
			done
		done
	done
	[ -z "$msg" ] && ok || bad "$msg"
fi

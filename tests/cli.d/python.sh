# python: the Python package (python/, docs/python.md) on build/'s
# libpagelab.so and binary - its tests (python/tests/, unittest: exact
# figures against the CLI's for the same runs, a Python LRU's misses =
# the C lru's on the CloudPhysics sample), the one-liner of
# docs/python.md, and examples/pagelab.ipynb (jupyter nbconvert where
# installed, else the same code as examples/pagelab_example.py).  The
# interpreter: $PYTHON, else the first of python3 and Debian's
# /usr/bin/python3 that has pandas and matplotlib (where .ci/run's
# python3-pandas and python3-matplotlib go), else python3.  About 15 s.

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LIBSO="$(cd "$(dirname "$P")" && pwd)/libpagelab.so"
PY=""
for py in ${PYTHON:-} python3 /usr/bin/python3; do
	have "$py" && "$py" -c 'import pandas, matplotlib' 2>/dev/null && { PY=$py; break; }
done
[ -n "$PY" ] || for py in ${PYTHON:-} python3; do have "$py" && { PY=$py; break; }; done
PAGELAB_ABS="$(cd "$(dirname "$P")" && pwd)/$(basename "$P")"
pyrun() {
	PYTHONPATH="$ROOT/python:$ROOT/python/tests" PAGELAB="$PAGELAB_ABS" PAGELAB_LIB="$LIBSO" "$PY" "$@"
}
# libpagelab.so of a sanitizer build cannot be loaded into an
# interpreter that was not started with its runtime.
why=""
if [ -z "$PY" ]; then
	why="no python3 (Debian's python3)"
elif [ -n "${PAGELAB_SANITIZED:-}" ]; then
	why="a sanitizer build (make sancheck builds no libpagelab.so: it could not be loaded)"
elif [ ! -r "$LIBSO" ]; then
	why="no $LIBSO (make lib)"
fi

# ready [MODULE...]: the package can run here with these modules (Debian's
# python3-MODULE); else the check is skipped, saying why.
ready() {
	[ -z "$why" ] || { skip "$why"; return 1; }
	for m in "$@"; do
		pyrun -c "import $m" 2>/dev/null || { skip "no $m (Debian's python3-$m)"; return 1; }
	done
}

t "python: python/tests (unittest) against the CLI"
if ready; then
	pyrun -m unittest discover -s "$ROOT/python/tests" >"$T/unit" 2>&1
	rc=$?
	n=$(sed -n 's/^Ran \([0-9]*\) tests* in .*/\1/p' "$T/unit")
	# A skipped test class (no zstd) counts as run: what was skipped
	# shows in unittest's last line.
	[ $rc -eq 0 ] && [ "${n:-0}" -eq 22 ] && ok || bad "exit $rc, ran ${n:-0}: $(tail -c 600 "$T/unit")"
fi

t "python: python3 -c 'import pagelab; ...': a 3 x 3 DataFrame"
if ready pandas; then
	pyrun -c 'import pagelab; df = pagelab.sweep("usemem -m 24", policy=["fifo", "clock", "lru"], ram=["12M", "16M", "20M"], swap="32M"); print(type(df).__name__, df.shape); print(df[["design", "ram", "pswpout"]].to_string(index=False))' >"$T/df" 2>&1
	rc=$?
	# The figures of the same cells from the CLI.
	want=""
	for pol in fifo clock lru; do
		for ram in 12M 16M 20M; do
			$P run --no-progress --ram $ram --swap 32M --policy $pol usemem -m 24 >"$T/cli.out" 2>&1
			want="$want$pol $ram $(counter pswpout "$T/cli.out");"
		done
	done
	got=$(awk 'NR > 2 { printf "%s %s %s;", $1, $2, $3 }' "$T/df")
	[ $rc -eq 0 ] && head -1 "$T/df" | grep -q "^DataFrame (9, [0-9]*)$" &&
		[ "$got" = "$want" ] && ok || bad "exit $rc: $(head -c 600 "$T/df") / want $want"
fi

t "python: examples/pagelab.ipynb = tools/py2nb.py of the script"
if [ -z "$PY" ]; then
	skip "no python3 (Debian's python3)"
else
	"$PY" "$ROOT/tools/py2nb.py" "$ROOT/examples/pagelab_example.py" >"$T/nb" 2>&1 &&
		cmp -s "$T/nb" "$ROOT/examples/pagelab.ipynb" && ok || bad "regenerate it: python3 tools/py2nb.py ..."
fi

t "python: the example runs, its plots written"
if ready pandas matplotlib; then
	mkdir -p "$T/ex"
	if have jupyter && jupyter nbconvert --version >/dev/null 2>&1; then
		how="jupyter nbconvert"
		(cd "$ROOT/examples" && PAGELAB_EXAMPLE_OUT="$T/ex" PAGELAB_TREE="$ROOT" PYTHONPATH="$ROOT/python" \
			PAGELAB="$PAGELAB_ABS" PAGELAB_LIB="$LIBSO" jupyter nbconvert --to notebook --execute \
			--output-dir "$T/ex" pagelab.ipynb) >"$T/ex.out" 2>&1
	else
		how="the script (no jupyter nbconvert)"
		(cd "$ROOT/examples" && PAGELAB_EXAMPLE_OUT="$T/ex" PAGELAB_TREE="$ROOT" pyrun pagelab_example.py) \
			>"$T/ex.out" 2>&1
	fi
	rc=$?
	[ $rc -eq 0 ] && [ -s "$T/ex/sweep.png" ] && [ -s "$T/ex/mrc.png" ] && [ -s "$T/ex/speed.png" ] &&
		{ [ "$how" != "${how#jupyter}" ] || grep -q '^ 4897 frames: 91657 misses (C lru 91657); ' "$T/ex.out"; } &&
		ok || bad "$how: exit $rc: $(tail -c 600 "$T/ex.out")"
fi

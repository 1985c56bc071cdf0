set -u
P=${PAGELAB:-./pagelab}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
t() { printf '%-64s' "$1"; }
ok() { echo ok; }
bad() { echo "FAILED: $1"; fail=1; }
counter() { awk -v n="$1" '$1 == n && NF == 2 { print $2; f = 1 } END { if (!f) print -1 }' "$2"; }
. "$1"
exit $fail

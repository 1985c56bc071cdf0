# Version, install, tables (issue 15).

t "--version prints pagelab and the build's version"
out=$($P --version 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -Eq '^pagelab [0-9a-zA-Z][-.0-9a-zA-Z+]*$' && ok || bad "rc $rc: $out"

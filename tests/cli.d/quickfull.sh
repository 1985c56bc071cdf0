# reproduce's quick and full modes, and the inode indexes that made full
# mode finish (src/mm/inode_index.c).  Sourced by tests/cli.sh.
# Cost: a 2 s simulated dbench under --check (~0.5 s of CPU).

t "dbench --check: inode hash and dirty list match the inodes"
$P run --check --machine athlon-2001 --ram 12M --swap 16M --policy aa24 --max-time 2 dbench 2 >"$T/qf_db" 2>"$T/qf_err"; rc=$?
if [ $rc -eq 3 ] && ! grep -q '^check:' "$T/qf_err" && [ "$(counter pgpgout "$T/qf_db")" -gt 0 ] &&
   [ "$(counter dirty_throttle "$T/qf_db")" -gt 0 ]; then ok; else bad "rc $rc: $(grep -m2 . "$T/qf_err")"; fi

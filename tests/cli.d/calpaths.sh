# pagelab kernel --calibrate's kernel paths (issue 38, docs/cost.md):
# --calibrate-user leaves them out, and the profile says so for each of
# their costs.  The root measurement itself takes pagelab kernel's lock
# and a cgroup, so it is not run here (tests/test_calprofile.c checks its
# arithmetic and the profile it writes).  Cost: one user-space
# calibration, about 3 s.

t "kernel --calibrate-user: the kernel paths unmeasured, their costs modern's"
$P kernel --calibrate-user "$T/user.profile" >"$T/calu.txt" 2>"$T/calu.err"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$T/calu.err" ] &&
   [ "$(grep -cE '^(page_drop|pageout_file|unmap_pte|unmap_walk|ref_walk|pageout_anon|dio_4k|dio_1m|aio_4k|aio_1m|io_page|io_submit|io_complete) +- +- +- +- ' "$T/calu.txt")" -eq 13 ] &&
   grep -q '^# cost\.try_to_unmap: default, modern.s (not measured: not asked for' "$T/user.profile" &&
   grep -q '^# cost\.io_submit: default, modern.s (not measured: not asked for' "$T/user.profile" &&
   grep -q '^# cost\.rmap: bench rmap, ' "$T/user.profile" &&
   grep -qx 'cost.io_submit = 2us' "$T/user.profile" &&
   awk 'length > 80 { bad = 1 } END { exit bad }' "$T/calu.txt" "$T/user.profile"; then ok
else bad "exit $rc: $(cat "$T/calu.err") $(grep -E 'io_submit|try_to_unmap' "$T/user.profile")"; fi

t "kernel --calibrate-user with no FILE: exit 2, one line"
$P kernel --calibrate-user >"$T/o" 2>"$T/e"; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ]; then ok
else bad "exit $rc: $(cat "$T/e")"; fi

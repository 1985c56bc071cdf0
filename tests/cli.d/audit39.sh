# Issue 39's audit: the docs' code blocks and pagelab run --help's
# lines about the cgroup agents say what they should.  Well under 1 s.

D=$(dirname "$0")/../docs

t "docs/*.md: a code fence is alone on its line (\`\`\` or \`\`\`LANG)"
f=$(grep -n '^```' "$D"/*.md | grep -v ':```[A-Za-z0-9_-]*$')
[ -z "$f" ] && ok || bad "$f"

t "run --help: the agents' sentence ends, naming --set psi=1"
$P run --help >"$T/h" 2>&1
grep -A3 'The workloads memreclaim, senpai and oomd' "$T/h" | tr -s ' \n' ' ' >"$T/h1"
grep -q 'senpai and oomd read memory.pressure: --set psi=1)\.' "$T/h1" && ok ||
	bad "$(cat "$T/h1")"

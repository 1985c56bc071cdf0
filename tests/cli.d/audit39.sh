# Issue 39's audit: the docs' code blocks and pagelab run --help's
# lines about the cgroup agents say what they should.  Well under 1 s.

D=$(dirname "$0")/../docs

t "docs/*.md: a code fence is alone on its line (\`\`\` or \`\`\`LANG)"
f=$(grep -n '^```' "$D"/*.md | grep -v ':```[A-Za-z0-9_-]*$')
[ -z "$f" ] && ok || bad "$f"

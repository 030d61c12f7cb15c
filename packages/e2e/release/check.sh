#!/usr/bin/env bash
# Issue 12, the checks (after install.sh; only 127.0.0.1 is reached from here on):
#   bash packages/e2e/release/check.sh <work dir> [report.json]
# 1. check-node22.mjs with Node 22 in the fresh project: the tarballs' contents, tsc under nodenext and
#    bundler resolution, npx parley-emulator, npx parley status, the README's SDK snippet, a real
#    webhook verified and a tampered one refused.
# 2. runtime-smoke.mjs with Node 24: the SDK on Node 22, Node 24, Bun and Deno (ESM and CommonJS) and
#    workerd (miniflare) against one emulator, and the build each took.
# 3. recipes.mjs with Node 24: docs/webhooks.md's Bun, Deno and Hono-on-Workers recipes served on those
#    runtimes, delivered to by the emulator and graded 8/8 by `parley webhooks doctor` (issue 24).
# The report (optional) has vitest's count fields, so .ci/run's "Tests:" line adds these checks.
set -uo pipefail
work="${1:?usage: check.sh <work dir> [report.json]}"
report="${2:-}"
# Absolute: the checks run from the project folder.
[ -z "$report" ] || report="$(mkdir -p "$(dirname "$report")" && cd "$(dirname "$report")" && pwd)/$(basename "$report")"
tool_dir="${PARLEY_TOOL_DIR:-$HOME/.cache/parley-tool}"
node22="$tool_dir/node22/node_modules/.bin/node"
status=0
echo "The CLI tarball without @parley/emulator (issue 22):" && node "$(cd "$(dirname "$0")" && pwd)/cli-without-emulator.mjs" check "$work" || status=1
echo "parley mcp from the packed CLI on Node 22 and 24 (issue 25):" && PARLEY_NODE22="$node22" node "$(cd "$(dirname "$0")" && pwd)/mcp-check.mjs" "$work" || status=1
cd "$work/project" || exit 1
rm -f "$work"/counts-*.json

echo "Packed tarballs on Node 22 (a fresh project outside the workspace):"
# Node 22 and its npm first on PATH: npx, the bins' `#!/usr/bin/env node` and tsc all run on 22.
PATH="$tool_dir/node22/node_modules/.bin:$PATH" PARLEY_RELEASE_COUNTS="$work/counts-node22.json" \
  "$node22" check-node22.mjs || status=1

echo "Runtime smoke (one emulator on 127.0.0.1):"
PARLEY_NODE22="$node22" PARLEY_RUNTIMES="$tool_dir/runtimes" PARLEY_RELEASE_COUNTS="$work/counts-runtimes.json" \
  node runtime-smoke.mjs || status=1

echo "Webhook recipes of docs/webhooks.md on Bun, Deno and workerd (the emulator delivers, the doctor grades):"
PARLEY_RUNTIMES="$tool_dir/runtimes" PARLEY_RELEASE_COUNTS="$work/counts-recipes.json" node recipes.mjs || status=1

if [ -n "$report" ]; then
  # A script that died before writing its counts counts as one failure.
  node -e 'const fs = require("node:fs"); let passed = 0, failed = 0;
    for (const file of process.argv.slice(2)) {
      if (!fs.existsSync(file)) { failed++; continue; }
      const counts = JSON.parse(fs.readFileSync(file, "utf8"));
      passed += counts.passed; failed += counts.failed;
    }
    fs.writeFileSync(process.argv[1], JSON.stringify({ numPassedTests: passed, numFailedTests: failed,
      numPendingTests: 0, numTodoTests: 0 }));' "$report" "$work/counts-node22.json" "$work/counts-runtimes.json" \
    "$work/counts-recipes.json"
fi
exit "$status"

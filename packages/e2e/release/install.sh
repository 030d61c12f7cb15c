#!/usr/bin/env bash
# Issue 12, the install step (the only part that reaches the npm registry): Node 22 with its npm,
# Bun, Deno, miniflare (workerd) and esbuild into the tool cache, then the three packages packed
# and installed in a fresh project OUTSIDE the workspace, with Node 22's npm.
#   bash packages/e2e/release/install.sh <work dir>   (.ci/run passes a `mktemp -d`)
# Leaves <work>/tarballs/*.tgz and <work>/project (node_modules, the check scripts of ./project,
# the README's SDK snippet) for check.sh, which only talks to 127.0.0.1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${1:?usage: install.sh <work dir>}"
tool_dir="${PARLEY_TOOL_DIR:-$HOME/.cache/parley-tool}"
node22_dir="$tool_dir/node22"
runtimes_dir="$tool_dir/runtimes"
npm_quiet=(--no-audit --no-fund --loglevel=error)
started=$SECONDS
fail() {
  echo "✗ $1" >&2
  exit 1
}

# Tools, once per machine (reruns only check the cached binaries); both installs at once when cold.
pids=()
if [ ! -x "$node22_dir/node_modules/.bin/node" ] || [ ! -x "$node22_dir/node_modules/.bin/npm" ] \
  || ! "$node22_dir/node_modules/.bin/node" --version | grep -q '^v22\.'; then
  mkdir -p "$node22_dir"
  npm install "${npm_quiet[@]}" --prefix "$node22_dir" node@22 npm@10 >/dev/null &
  pids+=($!)
fi
if [ ! -x "$runtimes_dir/node_modules/.bin/bun" ] || [ ! -x "$runtimes_dir/node_modules/.bin/deno" ] \
  || [ ! -d "$runtimes_dir/node_modules/miniflare" ] || [ ! -x "$runtimes_dir/node_modules/.bin/esbuild" ] \
  || ! "$runtimes_dir/node_modules/.bin/bun" --version >/dev/null 2>&1 \
  || ! "$runtimes_dir/node_modules/.bin/deno" --version >/dev/null 2>&1; then
  mkdir -p "$runtimes_dir"
  npm install "${npm_quiet[@]}" --prefix "$runtimes_dir" bun@1 deno@2 miniflare@4 esbuild@0.28 >/dev/null &
  pids+=($!)
fi
for pid in "${pids[@]}"; do
  wait "$pid" || fail 'install Node 22 + npm 10, Bun, Deno, miniflare and esbuild from the npm registry'
done
node22="$node22_dir/node_modules/.bin/node"
echo "✓ tools: node $("$node22" --version) with npm $(PATH="$node22_dir/node_modules/.bin:$PATH" npm --version)," \
  "bun $("$runtimes_dir/node_modules/.bin/bun" --version), $("$runtimes_dir/node_modules/.bin/deno" --version | head -1)," \
  "miniflare $(node -p "require('$runtimes_dir/node_modules/miniflare/package.json').version")" \
  "(workerd $(node -p "require('$runtimes_dir/node_modules/workerd/package.json').version"))"

# The tarballs, exactly what `pnpm publish` would upload (workspace:* replaced by versions).
mkdir -p "$work/tarballs" "$work/project"
(cd "$root" && pnpm --silent --filter @parley/sdk --filter @parley/emulator --filter @parley/cli \
  pack --pack-destination "$work/tarballs" >/dev/null) || fail 'pnpm pack of @parley/sdk, @parley/emulator, @parley/cli'
[ "$(ls "$work/tarballs" | wc -l)" = 3 ] || fail "pnpm pack: expected 3 tarballs in $work/tarballs"

# A fresh project, as a user outside this repository makes one, installed with Node 22's npm.
cp -R "$here/project/." "$work/project/"
awk '/^## Send a message \(SDK\)/ { section = 1 } section && /^```ts$/ { code = 1; next }
  code && /^```$/ { exit } code { print }' "$root/README.md" >"$work/project/readme-snippet.ts"
[ -s "$work/project/readme-snippet.ts" ] || fail "README.md: no \`\`\`ts block under '## Send a message (SDK)'"
# docs/webhooks.md's Bun, Deno and Hono-on-Workers recipes, the files themselves, for recipes.mjs.
mkdir -p "$work/project/recipes"
cp "$root/examples/web-standard-receiver/runtimes/bun-server.ts" "$root/examples/web-standard-receiver/runtimes/deno-server.ts" \
  "$root/examples/hono-receiver/src/worker.ts" "$work/project/recipes/"
hono="$(node -p "require('$root/examples/hono-receiver/package.json').dependencies.hono")"
cat >"$work/project/package.json" <<'JSON'
{ "name": "parley-outside-the-workspace", "private": true, "type": "module" }
JSON
(
  cd "$work/project"
  PATH="$node22_dir/node_modules/.bin:$PATH" npm install "${npm_quiet[@]}" --prefer-offline \
    ../tarballs/parley-sdk-*.tgz ../tarballs/parley-emulator-*.tgz ../tarballs/parley-cli-*.tgz typescript@6 \
    "hono@$hono" >/dev/null
) || fail "npm install of the three tarballs (Node 22's npm) in $work/project"
echo "✓ packed $(cd "$work/tarballs" && echo *.tgz) and installed them with Node 22's npm in a fresh project" \
  "outside the workspace ($((SECONDS - started)) s)"
node "$here/cli-without-emulator.mjs" install "$work" || fail 'the sdk and cli tarballs alone, without the emulator (issue 22)'

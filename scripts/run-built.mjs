#!/usr/bin/env node
// `pnpm emulator` and `pnpm parley` run the BUILT bins. Right after `pnpm install` nothing is built,
// and a bin whose dist is older than its sources (or its workspace dependencies' sources) runs old
// code: build the package and its dependencies first when that is so, quietly, then run the bin
// with the arguments given (stdio passed through, exit code kept).
//   node scripts/run-built.mjs <package folder> <bin path inside it> [args…]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [packageFolder, binPath, ...args] = process.argv.slice(2);
if (!packageFolder || !binPath) {
  console.error('usage: node scripts/run-built.mjs <package folder> <bin path> [args…]');
  process.exit(2);
}

/** The package folders this one needs built: itself and its workspace dependencies, recursively. */
function workspaceClosure(folder, seen = new Set()) {
  if (seen.has(folder)) return seen;
  seen.add(folder);
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (String(range).startsWith('workspace:'))
      workspaceClosure(`packages/${name.replace('@parley/', '')}`, seen);
  }
  return seen;
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function oldestBuild(folder) {
  const dist = join(root, folder, 'dist');
  if (!existsSync(dist)) return 0;
  let oldest = Number.POSITIVE_INFINITY;
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else oldest = Math.min(oldest, statSync(child).mtimeMs);
    }
  };
  walk(dist);
  return oldest;
}

const stale = [...workspaceClosure(packageFolder)].filter(
  (folder) => oldestBuild(folder) < newestMtime(join(root, folder, 'src')),
);
if (stale.length > 0) {
  const filter = JSON.parse(readFileSync(join(root, packageFolder, 'package.json'), 'utf8')).name;
  try {
    execFileSync('pnpm', ['--silent', '--filter', `${filter}...`, 'build'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    console.error(`could not build ${stale.join(', ')}:\n${error.stderr ?? error.message}`);
    process.exit(1);
  }
}
const child = spawn(process.execPath, [join(root, packageFolder, binPath), ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));

// Whether a workspace package's build is older than its sources (or its workspace dependencies'
// sources), and building it when so. `pnpm emulator`, `pnpm parley` (run-built.mjs) and
// `pnpm demo` share it, so right after `pnpm install` they build what is missing, and otherwise
// nothing: a full build takes most of a minute on a small machine.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The package folders `folder` needs built: itself and its workspace dependencies, recursively.
 * Workspace peers count: the CLI's optional peer, the emulator, is what `parley emulator start` runs.
 */
export function workspaceClosure(root, folder, seen = new Set()) {
  if (seen.has(folder)) return seen;
  seen.add(folder);
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
  const needed = { ...manifest.dependencies, ...manifest.peerDependencies };
  for (const [name, range] of Object.entries(needed)) {
    if (String(range).startsWith('workspace:'))
      workspaceClosure(root, `packages/${name.replace('@parley/', '')}`, seen);
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

function oldestBuild(root, folder) {
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

/** The folders of `folder`'s closure whose dist is missing or older than their `src`. */
export function staleFolders(root, folder) {
  return [...workspaceClosure(root, folder)].filter(
    (each) => oldestBuild(root, each) < newestMtime(join(root, each, 'src')),
  );
}

/** `pnpm --filter <name>... build`, quietly; its stderr is kept for the error. */
export function buildPackages(root, filter) {
  execFileSync('pnpm', ['--silent', '--filter', `${filter}...`, 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/**
 * Builds `folder` and its workspace dependencies when any of them is stale; nothing otherwise.
 * Returns the stale folders (empty: nothing was built). A failed build throws an Error whose
 * message names them and carries the build's stderr.
 */
export function buildStale(root, folder, build = buildPackages) {
  const stale = staleFolders(root, folder);
  if (stale.length === 0) return stale;
  const filter = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).name;
  try {
    build(root, filter);
  } catch (error) {
    throw new Error(`could not build ${stale.join(', ')}:\n${error.stderr ?? error.message}`);
  }
  return stale;
}

#!/usr/bin/env node
// `pnpm emulator` and `pnpm parley` run the BUILT bins. Right after `pnpm install` nothing is built,
// and a bin whose dist is older than its sources (or its workspace dependencies' sources) runs old
// code: build the package and its dependencies first when that is so, quietly, then run the bin
// with the arguments given (stdio passed through, exit code kept).
//   node scripts/run-built.mjs <package folder> <bin path inside it> [args…]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStale } from './_built-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [packageFolder, binPath, ...args] = process.argv.slice(2);
if (!packageFolder || !binPath) {
  console.error('usage: node scripts/run-built.mjs <package folder> <bin path> [args…]');
  process.exit(2);
}

try {
  buildStale(root, packageFolder);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const child = spawn(process.execPath, [join(root, packageFolder, binPath), ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));

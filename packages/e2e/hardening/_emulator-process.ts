import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Inside the emulator package, so the bin finds its dependencies (h3, srvx, undici) from there;
// one directory per test process, so parallel runs never rebuild under each other's feet.
const outDir = `${root}packages/emulator/node_modules/.cache/hardening-bin-${process.pid}`;
let built: Promise<string> | undefined;
// Built per test file: removed once its tests are done.
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/**
 * The emulator's bin, built from the current source (about 150 ms), with the SDK from its source
 * too: these tests prove the code under review, never a stale `dist/` from an earlier build.
 */
export function freshBin(): Promise<string> {
  built ??= build({
    entry: { bin: `${root}packages/emulator/src/bin.ts` },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node22',
    splitting: false,
    dts: false,
    clean: true,
    silent: true,
    config: false,
    esbuildOptions(options) {
      options.packages = 'external';
      options.alias = { '@parley/sdk': `${root}packages/sdk/src/index.ts` };
    },
  }).then(() => `${outDir}/bin.js`);
  return built;
}

/** A running emulator process and what it printed. */
export interface EmulatorProcess {
  child: ChildProcess;
  base: string;
  control: string;
  key: string;
  /** Everything written to stderr so far. */
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the fresh bin with `--json --port 0` plus `args`; resolves at its ready line. */
export async function startEmulatorProcess(args: readonly string[]): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [await freshBin(), '--json', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<{ base_url: string; control_url: string; sandbox_key: string }>(
    (resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line) resolve(JSON.parse(line));
      });
      child.once('exit', (code) => reject(new Error(`emulator exited with ${code} before ready: ${errors}`)));
    },
  );
  return {
    child,
    base: ready.base_url,
    control: ready.control_url,
    key: ready.sandbox_key,
    stderr: () => errors,
    exited,
  };
}

/** Runs the fresh bin to its end: exit code and stderr. */
export async function runEmulatorProcess(
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [await freshBin(), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** Every item of a control-API list (`/_emulator/messages`, `/_emulator/deliveries`), page by page. */
export async function listAll<Item>(control: string, path: string): Promise<Item[]> {
  const items: Item[] = [];
  const separator = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await (await fetch(`${control}${path}${separator}limit=100${query}`)).json();
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

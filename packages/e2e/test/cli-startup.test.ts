// The start-up contract of the built CLI (issue 4): `--version` and `--help` load the entry and
// commander only; the SDK, chalk and prompts load with the commands that use them.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { assertCliBuilt, CLI_PATH, cliEnv, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
let recorder: string;

beforeAll(async () => {
  assertCliBuilt();
  dir = await mkdtemp(join(tmpdir(), 'parley-startup-'));
  recorder = join(dir, 'record-modules.cjs');
  // A synchronous module hook records every file module the process loads.
  await writeFile(
    recorder,
    `const loaded = [];
require('node:module').registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(loaded)));`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The contents of every dist file the CLI loaded for `args`. */
async function loadedFiles(args: string[]): Promise<{ names: string[]; source: string }> {
  const out = join(dir, `${args.join('_')}.json`);
  await promisify(execFile)(process.execPath, ['--require', recorder, CLI_PATH, ...args], {
    env: { ...cliEnv({}), MODULES_OUT: out },
  }).catch(() => undefined);
  const urls = (JSON.parse(await readFile(out, 'utf8')) as string[]).filter((url) => url.startsWith('file:'));
  const files = urls.map((url) => fileURLToPath(url));
  const source = (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
  return { names: files.map((file) => file.replace(`${join(CLI_PATH, '..')}/`, '')), source };
}

describe('start-up path of the built CLI', () => {
  for (const flag of ['--version', '--help']) {
    it(`${flag} loads no SDK, no chalk, no prompts`, async () => {
      const { names, source } = await loadedFiles([flag]);
      expect(names[0]).toBe('cli.js');
      // issue 23: --version is answered by the entry alone, before commander loads.
      if (flag === '--help') expect(source).toContain('commander');
      expect(source).not.toContain('parley-sdk-js'); // the SDK's user agent
      expect(source).not.toMatch(/node_modules\/\.pnpm\/(chalk|ky|@inquirer)@/);
      expect(names.every((name) => !name.includes('/'))).toBe(true);
    });
  }

  for (const flag of ['--version', '-v']) {
    it(`${flag} reads the entry file and nothing else (issue 23)`, async () => {
      const { names, source } = await loadedFiles([flag]);
      expect(names).toEqual(['cli.js']);
      expect(source).not.toContain('commander');
      const { version } = JSON.parse(await readFile(join(CLI_PATH, '../../package.json'), 'utf8'));
      expect(await runCli([flag], {})).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    });
  }

  it('--version to a reader that is gone, or to a closed stdout, exits 0 and says nothing (issue 23)', async () => {
    // The child waits for a byte on stdin before running the CLI: by then its stdout has no reader.
    const gate = join(dir, 'wait-for-go.cjs');
    await writeFile(gate, "require('node:fs').readSync(0, Buffer.alloc(1));");
    const child = spawn(process.execPath, ['--require', gate, CLI_PATH, '--version'], { env: cliEnv({}) });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const closed = once(child, 'close');
    child.stdout.destroy();
    await once(child.stdout, 'close');
    child.stdin.end('go');
    const [code] = await closed;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });

    const closedStdout = await promisify(execFile)(
      '/bin/sh',
      ['-c', 'exec "$0" "$@" >&-', process.execPath, CLI_PATH, '--version'],
      { env: cliEnv({}) },
    );
    expect(closedStdout).toEqual({ stdout: '', stderr: '' });
  });

  it('status --json reads the entry and the one file of the plain commands, nothing else (issue 23)', async () => {
    const { names } = await loadedFiles(['status', '--json']);
    expect(names).toEqual(['cli.js', 'plain.js']);
  });

  it('status loads the SDK but neither prompts nor the emulator', async () => {
    const { source } = await loadedFiles(['status', '--json']);
    expect(source).toContain('parley-sdk-js');
    expect(source).not.toMatch(/node_modules\/\.pnpm\/@inquirer/);
    expect(source).not.toContain('emulator/dist');
    // issue 23: a command whose only inputs are global flags runs without commander.
    expect(source).not.toMatch(/node_modules\/\.pnpm\/commander@/);
  });
});

// `pnpm demo` (issue 24): it builds only what is stale, with the logic `pnpm emulator` uses
// (scripts/_built-packages.mjs), and when 4010 is taken it names the port it used and says that
// emulator has stopped.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createControlClient } from '@parley/emulator/control';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface BuiltPackages {
  staleFolders(root: string, folder: string): string[];
  buildStale(root: string, folder: string, build?: (root: string, filter: string) => void): string[];
}
const builtPackages = (): Promise<BuiltPackages> =>
  import(`${root}scripts/_built-packages.mjs`) as Promise<BuiltPackages>;

describe('scripts/_built-packages.mjs: what is stale, built once', () => {
  let tree: string;
  const at = (seconds: number) => new Date(1_800_000_000_000 + seconds * 1000);
  const file = (path: string, seconds: number) => {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    writeFileSync(join(tree, path), 'x');
    utimesSync(join(tree, path), at(seconds), at(seconds));
  };
  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'parley-built-'));
    const manifest = (name: string, dependencies: Record<string, string>) =>
      JSON.stringify({ name, dependencies });
    mkdirSync(join(tree, 'packages/app'), { recursive: true });
    mkdirSync(join(tree, 'packages/lib'), { recursive: true });
    writeFileSync(
      join(tree, 'packages/app/package.json'),
      manifest('@parley/app', { '@parley/lib': 'workspace:*' }),
    );
    writeFileSync(join(tree, 'packages/lib/package.json'), manifest('@parley/lib', { chalk: '^6.0.0' }));
    file('packages/app/src/index.ts', 10);
    file('packages/app/dist/index.js', 20);
    file('packages/lib/src/index.ts', 10);
    file('packages/lib/dist/index.js', 20);
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('builds nothing when every build is newer than its sources', async () => {
    const { buildStale } = await builtPackages();
    const builds: string[] = [];
    expect(buildStale(tree, 'packages/app', (_root, filter) => builds.push(filter))).toEqual([]);
    expect(builds).toEqual([]);
  });

  it("a dependency's newer source makes one build of the package and what it uses", async () => {
    const { buildStale } = await builtPackages();
    file('packages/lib/src/more.ts', 30);
    const builds: string[] = [];
    expect(buildStale(tree, 'packages/app', (_root, filter) => builds.push(filter))).toEqual([
      'packages/lib',
    ]);
    expect(builds).toEqual(['@parley/app']);
  });

  it('a failed build says which folders and what the build said', async () => {
    const { buildStale } = await builtPackages();
    const failing = () => {
      throw Object.assign(new Error('exit 1'), { stderr: 'tsup: syntax error' });
    };
    expect(() => buildStale(tree, 'packages/app', failing)).toThrow(
      'could not build packages/lib:\ntsup: syntax error',
    );
  });
});

describe('pnpm demo', () => {
  it('is the demo script alone: it builds what is stale itself, not every package every time', () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.demo).toBe('node scripts/demo.mjs');
  });

  // It may build stale packages first: generous on 2 shared cores.
  it('with 4010 taken: the exports name the port it used, and it says that emulator has stopped', {
    timeout: 300_000,
  }, async () => {
    // Holds 4010 unless something else already does: either way the demo cannot have it.
    const holder: Server = createServer();
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(4010, '127.0.0.1', () => resolve());
    });
    try {
      const child = spawn(process.execPath, ['scripts/demo.mjs'], {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.resume();
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, stdout).toBe(0);
      const port = /✓ emulator {3}http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(stdout)?.[1];
      expect(port).toBeDefined();
      expect(port).not.toBe('4010');
      expect(stdout).toContain(`export PARLEY_BASE_URL=http://127.0.0.1:${port}/v1\n`);
      expect(stdout).toContain(`● The demo's emulator on port ${port} has stopped.\n`);
      expect(stdout).toContain(
        `Try it yourself  (first \`pnpm emulator --port ${port} --clock frozen\` in another terminal, or \`pnpm demo --keep\` to keep the demo's)\n`,
      );
      // It has: nothing answers on that port any more.
      await expect(createControlClient({ baseUrl: `http://127.0.0.1:${port}` }).health()).rejects.toThrow();
    } finally {
      holder.close();
    }
  });
});

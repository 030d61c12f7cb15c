// Issue 22: @parley/emulator is an optional peer of the CLI. The built CLI (dist and package.json,
// copied to a folder outside the workspace, where no node_modules holds the emulator) answers
// every command but `emulator start` on its own: what it takes from `@parley/emulator/control`
// and `/rules` is bundled. `emulator start` says what to install and exits 3. The packed-tarball
// version of this check is packages/e2e/release/cli-without-emulator.sh.
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, cliEnv, startNodeProcess } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI_DIR = fileURLToPath(new URL('../../cli/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MISSING = 'Error: parley emulator start needs @parley/emulator: npm install -D @parley/emulator\n';

let dir: string;
let emulator: EmulatorServer;
let env: Record<string, string>;

function parley(args: readonly string[], extra: Record<string, string> = {}) {
  return startNodeProcess(join(dir, 'cli', 'dist', 'cli.js'), args, { env: cliEnv({ ...env, ...extra }) })
    .exited;
}

beforeAll(async () => {
  assertCliBuilt();
  dir = await mkdtemp(join(tmpdir(), 'parley-cli-alone-'));
  await cp(join(CLI_DIR, 'dist'), join(dir, 'cli', 'dist'), { recursive: true });
  await cp(join(CLI_DIR, 'package.json'), join(dir, 'cli', 'package.json'));
  emulator = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = { XDG_CONFIG_HOME: join(dir, 'config'), NO_COLOR: '1' };
});
afterAll(async () => {
  await emulator?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the built CLI without @parley/emulator installed', () => {
  it('no file of dist imports the emulator but `emulator start`, by a dynamic import', async () => {
    const imports: string[] = [];
    for (const file of await readdir(join(dir, 'cli', 'dist'))) {
      if (!file.endsWith('.js')) continue;
      const code = await readFile(join(dir, 'cli', 'dist', file), 'utf8');
      for (const [specifier] of code.matchAll(/(?:from\s*|import\(\s*)["']@parley\/emulator[^"']*["']/g)) {
        imports.push(specifier.replace(/\s+/g, ''));
      }
    }
    expect(imports).toEqual(['import("@parley/emulator"']);
  });

  it('--version, status, the control commands and completion work', async () => {
    const version = await parley(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
    const credentials = { PARLEY_API_KEY: emulator.sandboxKey, PARLEY_BASE_URL: emulator.baseUrl };
    const status = await parley(['status', '--json'], credentials);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'authenticated', environment: 'sandbox' });
    // The control client and the duration grammar (@parley/emulator/control and /rules), bundled.
    const advanced = await parley(['emulator', 'clock', 'advance', '1h30m', '--json'], {
      PARLEY_BASE_URL: emulator.baseUrl,
    });
    expect(advanced).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(advanced.stdout)).toMatchObject({ advanced_ms: 5_400_000 });
    const completion = await parley(['completion', 'bash']);
    expect(completion).toMatchObject({ code: 0, stderr: '' });
    expect(completion.stdout).toContain('--retry-schedule');
  });

  it('its library types need no emulator: strict tsc of a file using the emulator commands answers', {
    timeout: 180_000,
  }, async () => {
    // A project whose node_modules has the CLI and its type dependencies, and no @parley/emulator.
    const project = join(dir, 'project');
    const modules = join(project, 'node_modules');
    await cp(join(dir, 'cli'), join(modules, '@parley', 'cli'), { recursive: true });
    const link = async (from: string, name: string) => {
      await mkdir(join(modules, name, '..'), { recursive: true });
      await symlink(await realpath(from), join(modules, name));
    };
    await link(join(CLI_DIR, 'node_modules', '@parley', 'sdk'), '@parley/sdk');
    await link(join(CLI_DIR, 'node_modules', 'commander'), 'commander');
    await link(join(CLI_DIR, 'node_modules', 'chalk'), 'chalk');
    await link(join(ROOT, 'node_modules', '@types', 'node'), '@types/node');
    await writeFile(
      join(project, 'check.ts'),
      [
        "import { emulatorStatus, type EmulatorStatus } from '@parley/cli';",
        'export const version = (status: EmulatorStatus): string => status.version;',
        'export const run: typeof emulatorStatus = emulatorStatus;',
        '// @ts-expect-error: a real type, not any',
        'export const wrong = (status: EmulatorStatus): number => status.version;',
        '',
      ].join('\n'),
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2023',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await startNodeProcess(tsc, ['-p', join(project, 'tsconfig.json')], { env: cliEnv({}) })
      .exited;
    expect(checked).toMatchObject({ code: 0, stdout: '' });
  });

  it('emulator start: says what to install and exits 3, also for --help and --json', async () => {
    for (const args of [[], ['--port', '0'], ['--help']]) {
      const started = await parley(['emulator', 'start', ...args]);
      expect(started).toMatchObject({ code: 3, stdout: '', stderr: MISSING });
    }
    const json = await parley(['emulator', 'start', '--json']);
    expect(json).toMatchObject({ code: 3, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'config_error',
        message: 'parley emulator start needs @parley/emulator: npm install -D @parley/emulator',
        request_id: null,
      },
    });
  });
});

describe('the workspace', () => {
  it('`pnpm parley` builds the emulator with the CLI: a workspace peer is in the closure', async () => {
    const { workspaceClosure } = (await import(`${ROOT}scripts/_built-packages.mjs`)) as {
      workspaceClosure(root: string, folder: string): Set<string>;
    };
    expect([...workspaceClosure(ROOT, 'packages/cli')].sort()).toEqual([
      'packages/cli',
      'packages/emulator',
      'packages/sdk',
    ]);
  });
});

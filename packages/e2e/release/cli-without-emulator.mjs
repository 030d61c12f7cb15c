// Issue 22: @parley/emulator is an optional peer of @parley/cli. Installed WITHOUT it, the CLI
// tarball answers every command but `emulator start`, which says what to install and exits 3.
//   node cli-without-emulator.mjs install <work>   (install.sh, after the tarballs are packed: the
//       sdk and cli tarballs alone, with Node 22's npm, into <work>/cli-alone; reaches the registry)
//   node cli-without-emulator.mjs check <work>     (check.sh: 127.0.0.1 only) runs, on Node 22,
//       `parley --version`, `parley status --json` against an emulator started from the
//       workspace's built bin, and `parley emulator start`.
// One ✓/✗ line per check; exit 1 when any failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [mode, work] = process.argv.slice(2);
if ((mode !== 'install' && mode !== 'check') || !work) {
  console.error('usage: node cli-without-emulator.mjs install|check <work dir>');
  process.exit(2);
}
const root = fileURLToPath(new URL('../../../', import.meta.url));
const toolDir = process.env.PARLEY_TOOL_DIR ?? join(process.env.HOME ?? '/tmp', '.cache/parley-tool');
const node22Bin = join(toolDir, 'node22/node_modules/.bin');
const project = join(work, 'cli-alone');
const tarballs = join(work, 'tarballs');
// Node 22 and its npm first: the bin's `#!/usr/bin/env node` runs on 22, npm never asks twice.
const env = {
  ...process.env,
  PATH: `${node22Bin}:${process.env.PATH ?? ''}`,
  npm_config_update_notifier: 'false',
};
const MISSING = 'Error: parley emulator start needs @parley/emulator: npm install -D @parley/emulator\n';
let failed = 0;

/** Runs to completion; resolves to its code and output (never rejects on a non-zero exit). */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: project, env, ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

async function check(name, body) {
  try {
    const detail = await body();
    console.log(`✓ ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failed++;
    console.log(`✗ ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function expectEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

if (mode === 'install') {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "parley-cli-without-emulator", "private": true, "type": "module" }\n',
  );
  const packed = readdirSync(tarballs).filter((file) => /^parley-(sdk|cli)-.*\.tgz$/.test(file));
  await check('npm install of the sdk and cli tarballs alone (Node 22 npm)', async () => {
    if (packed.length !== 2)
      throw new Error(`expected the sdk and cli tarballs in ${tarballs}, found ${packed}`);
    const installed = await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--prefer-offline',
        ...packed.map((file) => join(tarballs, file)),
      ],
      { timeout: 300_000 },
    );
    if (installed.code !== 0)
      throw new Error(`npm install exited ${installed.code}\n${installed.stderr.trim()}`);
    const present = ['@parley/emulator', 'h3', 'srvx', 'undici'].filter((name) =>
      existsSync(join(project, 'node_modules', name)),
    );
    expectEqual(present, [], 'packages that must not be installed');
    return packed.join(', ');
  });
} else {
  const parley = (args, extra = {}) =>
    run(join(project, 'node_modules/.bin/parley'), args, {
      env: { ...env, XDG_CONFIG_HOME: join(project, 'config'), NO_COLOR: '1', ...extra },
    });
  // Nothing else than this check puts the emulator there: without it the check means nothing.
  await check('the project has no @parley/emulator, h3, srvx or undici', () => {
    const present = ['@parley/emulator', 'h3', 'srvx', 'undici'].filter((name) =>
      existsSync(join(project, 'node_modules', name)),
    );
    expectEqual(present, [], 'installed');
  });
  await check('parley --version', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8'));
    const result = await parley(['--version']);
    expectEqual(result, { code: 0, stdout: `${version}\n`, stderr: '' }, 'parley --version');
    return version;
  });
  // The emulator from the workspace's built bin, on Node 22 too, on a free port of 127.0.0.1.
  const emulator = spawn(
    join(node22Bin, 'node'),
    [join(root, 'packages/emulator/dist/bin.js'), '--port', '0', '--json'],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const ready = await new Promise((resolve, reject) => {
      let buffered = '';
      const timer = setTimeout(() => reject(new Error('the emulator printed no ready line in 30 s')), 30_000);
      emulator.on('error', reject);
      emulator.on('exit', (code) => reject(new Error(`the emulator exited ${code} before its ready line`)));
      emulator.stdout.on('data', (chunk) => {
        buffered += chunk;
        const newline = buffered.indexOf('\n');
        if (newline === -1) return;
        clearTimeout(timer);
        try {
          resolve(JSON.parse(buffered.slice(0, newline)));
        } catch (error) {
          reject(error);
        }
      });
    });
    await check('parley status --json against the workspace emulator', async () => {
      const result = await parley(['status', '--json'], {
        PARLEY_API_KEY: ready.sandbox_key,
        PARLEY_BASE_URL: ready.base_url,
      });
      expectEqual([result.code, result.stderr], [0, ''], 'exit code and stderr');
      expectEqual(JSON.parse(result.stdout).status, 'authenticated', 'status');
      return ready.base_url;
    });
  } catch (error) {
    failed++;
    console.log(`✗ the workspace emulator (packages/emulator/dist/bin.js) started: ${error.message}`);
  } finally {
    emulator.kill('SIGTERM');
  }
  await check('parley emulator start says what to install and exits 3', async () => {
    const result = await parley(['emulator', 'start', '--port', '0']);
    expectEqual(result, { code: 3, stdout: '', stderr: MISSING }, 'parley emulator start');
  });
}
process.exit(failed === 0 ? 0 : 1);

// Issue 12, part 1, run by check.sh with Node 22 inside the fresh project (install.sh made it): the
// packed tarballs as a user outside this repository gets them. Only 127.0.0.1 is reached.
//   - each tarball holds README.md, LICENSE, package.json and dist (with every file its exports and
//     bin point at), and no sources or tests;
//   - tsc (strict, no emit) on types.ts under nodenext and under bundler resolution;
//   - `npx parley-emulator --port 0 --json` starts; `npx parley status --json` reaches it;
//   - the README's SDK snippet runs as a .ts file (Node 22.18+ strips types) and sees `delivered`;
//   - the status webhooks of that very message reach a 127.0.0.1 receiver registered through the
//     control API and pass `verifyWebhook` with no options; the same delivery tampered is refused.
// One ✓/✗ line per check; exit 1 when any failed; counts to $PARLEY_RELEASE_COUNTS when set.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('.', import.meta.url));
const tarballs = fileURLToPath(new URL('../tarballs/', import.meta.url));
// npx must find the local bins and never ask the registry.
const env = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
let passed = 0;
let failed = 0;
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function check(name, run) {
  const since = Date.now();
  try {
    const detail = await run();
    passed++;
    console.log(`✓ ${name}${detail ? `: ${detail}` : ''} (${seconds(since)})`);
    return true;
  } catch (error) {
    failed++;
    console.log(`✗ ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: project, env, ...options });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}\n${output.trim()}`));
    });
  });
}

// --- the tarballs' contents --------------------------------------------------------------------
const forbidden = /^package\/(src|test|tests|__tests__|bench|coverage)\/|\.test\.|\.test-d\.|\.tsbuildinfo$/;
for (const file of readdirSync(tarballs).filter((name) => name.endsWith('.tgz'))) {
  await check(`tarball ${file} holds README.md, LICENSE, dist and no sources or tests`, () => {
    const entries = execFileSync('tar', ['-tzf', `${tarballs}${file}`], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const missing = ['package/README.md', 'package/LICENSE', 'package/package.json'].filter(
      (entry) => !entries.includes(entry),
    );
    if (!entries.some((entry) => entry.startsWith('package/dist/'))) missing.push('package/dist/');
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', `${tarballs}${file}`, 'package/package.json'], { encoding: 'utf8' }),
    );
    // Every file the manifest points at (exports, bin, main, module, types) is in the tarball.
    const targets = new Set();
    const collect = (value) => {
      if (typeof value === 'string') targets.add(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect([manifest.exports, manifest.bin, manifest.main, manifest.module, manifest.types]);
    for (const target of targets) {
      const entry = `package/${target.replace(/^\.\//, '')}`;
      if (!entries.includes(entry)) missing.push(`${entry} (named by package.json)`);
    }
    if (JSON.stringify(manifest).includes('workspace:')) missing.push('versions instead of workspace:');
    const unwanted = entries.filter((entry) => forbidden.test(entry));
    if (missing.length || unwanted.length) {
      throw new Error(
        [missing.length && `missing ${missing.join(', ')}`, unwanted.length && `has ${unwanted.join(', ')}`]
          .filter(Boolean)
          .join('; '),
      );
    }
    return `${entries.length} files, ${targets.size} package.json targets present`;
  });
}

// --- type-checks (in parallel with the live checks below) ----------------------------------------
const tsc = fileURLToPath(new URL('node_modules/typescript/bin/tsc', import.meta.url));
const typeChecks = Promise.all([
  check('tsc --noEmit (strict, module/moduleResolution nodenext): types.ts (ESM) and types-cjs.cts', () =>
    run(process.execPath, [tsc, '-p', 'tsconfig.nodenext.json']).then(() => ''),
  ),
  check('tsc --noEmit (strict, module esnext, moduleResolution bundler): types.ts', () =>
    run(process.execPath, [tsc, '-p', 'tsconfig.bundler.json']).then(() => ''),
  ),
]);

// --- the emulator, the CLI, the README snippet and a real webhook --------------------------------
await check(`running on Node 22 (${process.version})`, () => {
  if (!process.version.startsWith('v22.')) throw new Error(`this is ${process.version}`);
  return '';
});

let emulator;
let ready;
function stopEmulator() {
  if (!emulator?.pid || emulator.exitCode !== null) return;
  try {
    process.kill(-emulator.pid, 'SIGTERM');
  } catch {}
}
await check('npx parley-emulator --port 0 --json starts and prints its ready line', async () => {
  // Its own process group, so the whole npx → sh → node chain stops at the end.
  emulator = spawn('npx', ['parley-emulator', '--port', '0', '--json'], {
    cwd: project,
    env,
    detached: true,
  });
  process.once('exit', stopEmulator); // also when this script dies on an error
  let output = '';
  ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 60 s\n${output}`)), 60_000);
    emulator.stderr.on('data', (chunk) => (output += chunk));
    emulator.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    emulator.on('exit', (code) => reject(new Error(`exited ${code} before its ready line\n${output}`)));
  });
  emulator.removeAllListeners('exit');
  if (!ready.ready || !/^http:\/\/127\.0\.0\.1:\d+\/v1$/.test(ready.base_url)) {
    throw new Error(`ready line ${JSON.stringify(ready)}`);
  }
  return ready.base_url;
});

if (ready) {
  const apiEnv = { ...env, PARLEY_BASE_URL: ready.base_url, PARLEY_API_KEY: ready.sandbox_key };
  await check('npx parley status --json (PARLEY_BASE_URL, PARLEY_API_KEY) against it', async () => {
    const output = await run('npx', ['parley', 'status', '--json'], { env: apiEnv });
    const status = JSON.parse(output);
    if (status.environment !== 'sandbox') throw new Error(output);
    return `environment ${status.environment}, application ${status.application_id}`;
  });

  // A receiver as an Express or node:http app has it: the raw body as a Buffer, Node's headers.
  const { verifyWebhook, isWebhookVerificationError } = await import('@parley/sdk/webhooks');
  const deliveries = [];
  let secret = '';
  const receiver = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    try {
      const event = await verifyWebhook(body, req.headers, secret);
      deliveries.push({ event, body, headers: req.headers });
      res.writeHead(204).end();
    } catch (error) {
      deliveries.push({ error: isWebhookVerificationError(error) ? error.reason : String(error) });
      res.writeHead(400).end();
    }
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/webhooks/parley`;

  const registered = await check('a 127.0.0.1 receiver registered through the control API', async () => {
    const status = await fetch(`${ready.base_url}/status`, {
      headers: { authorization: `Bearer ${ready.sandbox_key}` },
    }).then((response) => response.json());
    const response = await fetch(`${ready.control_url}/applications/${status.application_id}/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, events: ['message.status_updated'] }),
    });
    const endpoint = await response.json();
    if (response.status !== 201 || !endpoint.secret) throw new Error(JSON.stringify(endpoint));
    secret = endpoint.secret;
    return `${receiverUrl} (endpoint ${endpoint.id})`;
  });

  await check("README.md's SDK snippet, run as readme-snippet.ts by Node 22 (types stripped)", async () => {
    const output = await run(process.execPath, ['readme-snippet.ts'], { env: apiEnv, timeout: 60_000 });
    const last = output.trim().split('\n').at(-1) ?? '';
    if (!/^delivered \d{4}-\d\d-\d\dT/.test(last)) throw new Error(`printed ${output.trim()}`);
    return `printed "${last}"`;
  });

  if (registered) {
    const delivered = await check(
      'the snippet’s status webhooks reached the receiver and verifyWebhook (no options) accepted them',
      async () => {
        const deadline = Date.now() + 20_000;
        while (!deliveries.some((delivery) => delivery.event?.data.message.status === 'delivered')) {
          if (Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const refused = deliveries.filter((delivery) => delivery.error);
        if (refused.length)
          throw new Error(`refused: ${refused.map((delivery) => delivery.error).join(', ')}`);
        const statuses = deliveries.map((delivery) => delivery.event.data.message.status);
        if (!statuses.includes('delivered')) throw new Error(`got ${JSON.stringify(statuses)} in 20 s`);
        return `${deliveries.length} deliveries (${statuses.join(', ')}), signed ${deliveries[0].headers['parley-signature'].slice(0, 12)}…`;
      },
    );
    if (delivered) {
      await check('the same delivery with one byte of its body changed is refused', async () => {
        const { body, headers } = deliveries.find((delivery) => delivery.event);
        const tampered = Buffer.from(body);
        const at = tampered.indexOf('"status":"') + '"status":"'.length;
        tampered[at] = tampered[at] === 0x78 ? 0x79 : 0x78;
        try {
          await verifyWebhook(tampered, headers, secret);
        } catch (error) {
          if (isWebhookVerificationError(error) && error.reason === 'signature_mismatch') return error.reason;
          throw error;
        }
        throw new Error('accepted');
      });
    }
  }
  await new Promise((resolve) => receiver.close(resolve));
}
stopEmulator();
await typeChecks;

console.log(
  `${failed ? '✗' : '✓'} Node 22 tarball checks: ${passed} passed, ${failed} failed in ${seconds(started)}`,
);
if (process.env.PARLEY_RELEASE_COUNTS) {
  writeFileSync(process.env.PARLEY_RELEASE_COUNTS, JSON.stringify({ passed, failed }));
}
process.exit(failed ? 1 : 0);

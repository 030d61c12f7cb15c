// Issue 12, part 2, run by check.sh (Node 24) inside the fresh project: the SDK's runtime claims,
// proven against ONE emulator on 127.0.0.1. smoke.mjs / smoke.cjs run on Node 22, Node 24, Bun and
// Deno (ESM and CommonJS on each); worker.mjs, bundled as Wrangler would, runs in workerd through
// miniflare. Each run does status, send, get, verifies a genuine delivery and refuses it tampered,
// and says which build of `@parley/sdk/webhooks` it took (dist/node/ = the `node` build).
// Environment: PARLEY_NODE22 (node binary), PARLEY_RUNTIMES (tool folder with bun, deno, miniflare
// and esbuild in node_modules), PARLEY_RELEASE_COUNTS (optional: where to write the counts).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('.', import.meta.url));
const runtimes = process.env.PARLEY_RUNTIMES;
const node22 = process.env.PARLEY_NODE22;
if (!runtimes || !node22) throw new Error('PARLEY_RUNTIMES and PARLEY_NODE22 must be set (check.sh does)');
const bin = (name) => `${runtimes}/node_modules/.bin/${name}`;
const started = Date.now();
let passed = 0;
let failed = 0;
const results = [];

// --- one emulator, and a receiver that hands each delivery to the smoke that asked for it ------------
const emulator = spawn(process.execPath, ['node_modules/.bin/parley-emulator', '--port', '0', '--json'], {
  cwd: project,
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.once('exit', () => emulator.kill('SIGTERM')); // also when this script dies on an error
const ready = await new Promise((resolve, reject) => {
  let output = '';
  emulator.stdout.on('data', (chunk) => {
    output += chunk;
    const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
    if (line) resolve(JSON.parse(line));
  });
  emulator.once('exit', (code) => reject(new Error(`the emulator exited ${code}: ${output}`)));
});

const deliveries = new Map(); // event id → { body, headers }
const waiting = new Map(); // event id → resolve
const receiver = createServer(async (req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const id = req.headers['parley-event-id'];
    const delivery = { body: Buffer.concat(chunks), headers: req.headers };
    deliveries.set(id, delivery);
    waiting.get(id)?.(delivery);
    res.writeHead(204).end();
    return;
  }
  // GET /deliveries/<event id>: the delivery as it came, body and Parley-* headers untouched.
  const id = decodeURIComponent(req.url.slice('/deliveries/'.length));
  const delivery =
    deliveries.get(id) ??
    (await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), 15_000);
      waiting.set(id, (arrived) => {
        clearTimeout(timer);
        resolve(arrived);
      });
    }));
  waiting.delete(id);
  if (!delivery) return void res.writeHead(404).end(`no delivery of ${id} in 15 s`);
  const headers = { 'content-type': delivery.headers['content-type'] ?? 'application/json' };
  for (const name of ['parley-event-id', 'parley-timestamp', 'parley-signature']) {
    headers[name] = delivery.headers[name];
  }
  res.writeHead(200, headers).end(delivery.body);
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

const status = await fetch(`${ready.base_url}/status`, {
  headers: { authorization: `Bearer ${ready.sandbox_key}` },
}).then((response) => response.json());
const endpoint = await fetch(`${ready.control_url}/applications/${status.application_id}/endpoints`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ url: `${receiverUrl}/webhooks`, events: ['message.received'] }),
}).then((response) => response.json());
if (!endpoint.secret) throw new Error(`endpoint not created: ${JSON.stringify(endpoint)}`);
const config = (label) =>
  JSON.stringify({
    baseUrl: ready.base_url,
    controlUrl: ready.control_url,
    apiKey: ready.sandbox_key,
    connectionId: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
    deliveriesUrl: `${receiverUrl}/deliveries`,
    secret: endpoint.secret,
    label,
  });
console.log(`  emulator ${ready.base_url}, receiver ${receiverUrl} (endpoint ${endpoint.id})`);

// What docs/sdk.md's Runtimes table says each runtime takes: a different answer fails the run, so
// the table cannot drift from what the runtimes do.
const expected = (label) =>
  label.startsWith('workerd')
    ? { build: 'default', hmac: 'Web Crypto' }
    : { build: 'node', hmac: 'node:crypto' };

function report(label, result, since) {
  const took = `${((Date.now() - since) / 1000).toFixed(1)} s`;
  const want = expected(label);
  if (result.ok && (result.webhooks.build !== want.build || result.hmac !== want.hmac)) {
    result.ok = false;
    result.error = `took the ${result.webhooks.build} build (${result.webhooks.file}) with HMAC ${result.hmac}; docs/sdk.md says the ${want.build} build with ${want.hmac}`;
  }
  if (result.ok) {
    passed++;
    const hmac = `, HMAC ${result.hmac}`;
    console.log(
      `✓ ${label.padEnd(17)} ${result.steps.join(', ')}; @parley/sdk/webhooks → ${result.webhooks.file} (${result.webhooks.build} build), @parley/sdk → ${result.client.file}${hmac} (${took})`,
    );
  } else {
    failed++;
    console.log(`✗ ${label}: ${result.error} (${took})`);
  }
  results.push({ label, ...result });
}

// --- Node 22, Node 24, Bun, Deno: ESM and CommonJS -----------------------------------------------
const denoRun = ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--no-prompt'];
const runs = [
  ['node 22', node22, []],
  ['node 24', process.execPath, []],
  ['bun', bin('bun'), []],
  ['deno', bin('deno'), denoRun],
].flatMap(([name, command, args]) => [
  [`${name} esm`, command, [...args, 'smoke.mjs']],
  [`${name} cjs`, command, [...args, 'smoke.cjs']],
]);

for (const [label, command, args] of runs) {
  const since = Date.now();
  const result = await new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: project,
      env: { ...process.env, PARLEY_SMOKE: config(label), DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => resolve({ ok: false, error: error.message }));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
      if (code === 0 && line) return resolve(JSON.parse(line));
      resolve({ ok: false, error: `exited ${code ?? signal}\n${stdout}${stderr}`.trim() });
    });
  });
  report(label, result, since);
}

// --- workerd (miniflare): the worker bundled as Wrangler does, then called once --------------------
{
  const label = 'workerd esm';
  const since = Date.now();
  let mf;
  try {
    const requireTool = createRequire(`${runtimes}/node_modules/`);
    const esbuild = requireTool('esbuild');
    const { Miniflare } = requireTool('miniflare');
    // Wrangler's conditions (workerd, worker, browser), no `node`: what a Workers project resolves.
    const bundle = await esbuild.build({
      entryPoints: [`${project}worker.mjs`],
      absWorkingDir: project,
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2023',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
      logLevel: 'silent',
    });
    const sdkFiles = Object.keys(bundle.metafile.inputs)
      .filter((input) => input.includes('node_modules/@parley/sdk/'))
      .map((input) => input.slice(input.indexOf('@parley/sdk/') + '@parley/sdk/'.length));
    const webhooksFile = sdkFiles.find((file) => /(^|\/)webhooks\.js$/.test(file)) ?? '(none)';
    const clientFile = sdkFiles.find((file) => /(^|\/)index\.js$/.test(file)) ?? '(none)';
    const build = sdkFiles.some((file) => file.startsWith('dist/node/')) ? 'node' : 'default';
    mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0].text,
      compatibilityDate: '2025-09-01',
      bindings: { SMOKE: config(label) },
    });
    const response = await mf.dispatchFetch('http://smoke.local/');
    const result = await response.json();
    report(
      label,
      {
        ...result,
        webhooks: { file: webhooksFile, build },
        client: { file: `${clientFile} (bundled: ${sdkFiles.join(', ')})` },
      },
      since,
    );
  } catch (error) {
    report(label, { ok: false, error: error.stack ?? String(error) }, since);
  } finally {
    await mf?.dispose();
  }
}

emulator.kill('SIGTERM');
receiver.closeAllConnections();
receiver.close();

console.log('  build taken by @parley/sdk/webhooks:');
for (const result of results) {
  if (result.ok)
    console.log(`    ${result.label.padEnd(12)} ${result.webhooks.build.padEnd(8)} ${result.hmac}`);
}
console.log(
  `${failed ? '✗' : '✓'} runtime smoke: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (process.env.PARLEY_RELEASE_COUNTS) {
  writeFileSync(process.env.PARLEY_RELEASE_COUNTS, JSON.stringify({ passed, failed }));
}
process.exit(failed ? 1 : 0);

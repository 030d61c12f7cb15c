// Issue 24, run by check.sh (Node 24) inside the fresh project: docs/webhooks.md's Bun, Deno and
// Hono-on-Workers recipes, the very files (install.sh copies them into ./recipes; the workspace's
// examples-doc-snippets test proves each docs block is its file), run on the real runtime against the
// installed tarballs. Each gets real signed deliveries from one emulator (frozen clock): every event
// handled once, a replay acknowledged without running it again, a path elsewhere 404; then
// `parley webhooks doctor` must grade it 8/8.
// Environment: PARLEY_RUNTIMES (tool folder with bun, deno, miniflare and esbuild in node_modules),
// PARLEY_RELEASE_COUNTS (optional: where to write the counts).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('.', import.meta.url));
const runtimes = process.env.PARLEY_RUNTIMES;
if (!runtimes) throw new Error('PARLEY_RUNTIMES must be set (check.sh does)');
const bin = (name) => `${runtimes}/node_modules/.bin/${name}`;
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const started = Date.now();
let passed = 0;
let failed = 0;

/** Starts a process with piped output; `output()` is what it printed so far, both streams. */
function start(command, args, env = {}) {
  const child = spawn(command, args, {
    cwd: project,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Waits for real process I/O (never for emulator time), 20 s at most. */
async function until(check, what) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// --- one emulator, frozen clock --------------------------------------------------------------------
const emulator = start(process.execPath, [
  'node_modules/.bin/parley-emulator',
  '--port',
  '0',
  '--clock',
  'frozen',
  '--json',
]);
process.once('exit', () => emulator.child.kill('SIGTERM'));
const ready = JSON.parse(
  await until(
    () =>
      emulator
        .stdout()
        .split('\n')
        .find((line) => line.startsWith('{') && line.endsWith('}')),
    'the emulator',
  ),
);
async function call(url, init = {}) {
  const response = await fetch(url, {
    ...init,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${ready.sandbox_key}`,
      ...(init.method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
const api = (path, body) =>
  call(`${ready.base_url}${path}`, body && { method: 'POST', body: JSON.stringify(body) });
const control = (path, method = 'GET', body) =>
  call(`${ready.control_url}${path}`, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
const { application_id: applicationId } = await api('/status');
console.log(`  emulator ${ready.base_url} (frozen clock)`);

/** Every delivery of the endpoint once none is pending, oldest first. */
async function settled(endpointId) {
  let last = [];
  try {
    return await until(async () => {
      ({ data: last } = await control(`/deliveries?endpoint_id=${endpointId}`));
      return last.every((delivery) => delivery.status !== 'pending') && last.reverse();
    }, 'deliveries to finish');
  } catch (error) {
    const answers = last.map(
      (each) => `${each.status} (${each.attempts.map((a) => a.status_code).join(', ')})`,
    );
    throw new Error(`${error.message}: ${answers.join('; ')}`);
  }
}

/** Delivers to a running recipe at `base`, checks what it handled (`handled()`: its output), grades it. */
async function exercise(base, handled) {
  const steps = [];
  const endpoint = await control(`/applications/${applicationId}/endpoints`, 'POST', {
    url: `${base}/webhooks/parley`,
    events: ['message.received', 'message.status_updated'],
    secret: SECRET,
  });
  try {
    const message = await api('/messages', {
      type: 'template',
      connection_id: CONNECTION,
      to: '+33612345678',
      template: { name: 'hello_world', language: 'en', variables: [] },
    });
    // One step at a time: sent, then delivered (left together they could arrive delivered-first).
    await control('/clock/advance', 'POST', { ms: 2_000 });
    await settled(endpoint.id);
    await control('/clock/advance', 'POST', { ms: 3_000 });
    await settled(endpoint.id);
    const inbound = await api('/sandbox/events', { type: 'message.received' });
    const first = await settled(endpoint.id);
    if (first.length !== 3) throw new Error(`expected 3 deliveries, got ${first.length}`);
    await control(
      `/deliveries/${first.find((delivery) => delivery.event_id === inbound.id).id}/replay`,
      'POST',
    );
    const all = await until(async () => {
      const deliveries = await settled(endpoint.id);
      return deliveries.length === 4 && deliveries;
    }, 'the replay');
    const answers = all.map((delivery) => delivery.attempts.map((attempt) => attempt.status_code).join(','));
    if (answers.join(' ') !== '204 204 204 204')
      throw new Error(`answers ${answers.join(' ')}, expected 204 each`);
    const ids = first.map((delivery) => delivery.event_id);
    const seen = await until(() => {
      const lines = handled();
      return lines.length >= 3 && lines;
    }, 'the handlers to log');
    if (seen.join(' ') !== ids.join(' '))
      throw new Error(`handled ${seen.join(' ')}; delivered once each: ${ids.join(' ')}`);
    const output = handled.text();
    if (!output.includes(`sent ${message.id} (`) || !output.includes(`delivered ${message.id} (`))
      throw new Error(`the status handlers did not log ${message.id}: ${output}`);
    steps.push('3 events handled once each, a replay acknowledged (204) without running again');

    const elsewhere = await fetch(`${base}/health`);
    await elsewhere.arrayBuffer();
    if (elsewhere.status !== 404) throw new Error(`GET /health answered ${elsewhere.status}, expected 404`);
    steps.push('elsewhere 404');

    const doctor = start(
      process.execPath,
      ['node_modules/.bin/parley', 'webhooks', 'doctor', `${base}/webhooks/parley`, '--json'],
      {
        PARLEY_WEBHOOK_SECRET: SECRET,
      },
    );
    const code = await doctor.exited;
    const report = JSON.parse(doctor.stdout() || '{}');
    if (code !== 0 || report.counts?.passed !== 8)
      throw new Error(
        `doctor exit ${code}, ${JSON.stringify(report.counts)}: ${doctor.stdout()}${doctor.stderr()}`,
      );
    steps.push('doctor 8/8');
  } finally {
    await control(`/endpoints/${endpoint.id}`, 'DELETE');
  }
  return steps;
}

/** `… (evt_…)` lines, one per handled event. */
const eventIds = (text) => [...text.matchAll(/\((evt_[0-9a-f]{32})\)$/gm)].map((match) => match[1]);

async function check(label, run) {
  const since = Date.now();
  try {
    const steps = await run();
    passed++;
    console.log(`✓ ${label.padEnd(16)} ${steps.join(', ')} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    console.log(`✗ ${label}: ${error.stack ?? error} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
  }
}

/** A recipe that is a server process printing `listening on http://127.0.0.1:<port>`. */
function serverRecipe(command, args) {
  return async () => {
    const app = start(command, args, { PORT: '0', PARLEY_WEBHOOK_SECRET: SECRET });
    try {
      const base = await until(
        () =>
          /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(app.stdout())?.[1] ?? app.child.exitCode !== null,
        'the recipe to listen',
      );
      if (base === true) throw new Error(`exited ${app.child.exitCode}: ${app.stdout()}${app.stderr()}`);
      const handled = () => eventIds(app.stdout());
      handled.text = app.stdout;
      const steps = await exercise(base, handled);
      if (app.stderr()) throw new Error(`wrote to stderr: ${app.stderr()}`);
      return steps;
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
    }
  };
}

await check('bun', serverRecipe(bin('bun'), ['recipes/bun-server.ts']));
await check(
  'deno',
  serverRecipe(bin('deno'), [
    'run',
    '--allow-net=127.0.0.1',
    '--allow-env=PARLEY_WEBHOOK_SECRET,PORT',
    '--allow-read',
    '--no-prompt',
    'recipes/deno-server.ts',
  ]),
);
await check('hono on workerd', async () => {
  const requireTool = createRequire(`${runtimes}/node_modules/`);
  const esbuild = requireTool('esbuild');
  const { Miniflare } = requireTool('miniflare');
  // Bundled as Wrangler does: its conditions, no `node`.
  const bundle = await esbuild.build({
    entryPoints: [`${project}recipes/worker.ts`],
    absWorkingDir: project,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2023',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    logLevel: 'silent',
  });
  let logged = '';
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: '2025-09-01',
    bindings: { PARLEY_WEBHOOK_SECRET: SECRET },
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.on('data', (chunk) => (logged += chunk));
      stderr.on('data', (chunk) => (logged += chunk));
    },
  });
  try {
    const url = await mf.ready;
    const handled = () => eventIds(logged);
    handled.text = () => logged;
    return await exercise(url.origin, handled);
  } finally {
    await mf.dispose();
  }
});

emulator.child.kill('SIGTERM');
console.log(
  `${failed ? '✗' : '✓'} webhook recipes: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (process.env.PARLEY_RELEASE_COUNTS) {
  writeFileSync(process.env.PARLEY_RELEASE_COUNTS, JSON.stringify({ passed, failed }));
}
process.exit(failed ? 1 : 0);

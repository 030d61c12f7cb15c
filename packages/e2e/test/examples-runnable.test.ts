import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// The README's promises, run as a user runs them: `pnpm demo` (the built packages) and the
// examples' runnable entries (`pnpm start`: Node's type stripping) as real processes.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = ['packages/sdk/dist/node/index.js', 'packages/emulator/dist/index.js'];

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running: Run[] = [];
const servers: EmulatorServer[] = [];

function run(args: string[], env: Record<string, string> = {}, cwd = root): Run {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', PARLEY_API_KEY: '', PARLEY_BASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const handle = { child, output: () => output, exited };
  running.push(handle);
  return handle;
}

/** Waits for real process I/O, never for emulator time. */
async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(() => {
  const missing = BUILT.filter((file) => !existsSync(`${root}${file}`));
  if (missing.length > 0) throw new Error(`Build first (pnpm build): missing ${missing.join(', ')}`);
});

afterEach(async () => {
  for (const handle of running.splice(0)) if (handle.child.exitCode === null) handle.child.kill();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('pnpm demo (scripts/demo.mjs)', () => {
  it('sends a message, shows both status webhooks verified, prints the next commands and exits 0', async () => {
    const demo = run(['scripts/demo.mjs']);

    expect(await demo.exited).toBe(0);
    const output = demo.output();
    expect(output).toMatch(/webhook message\.status_updated sent\s+evt_[0-9a-f]{32}\s+✓ verified/);
    expect(output).toMatch(/webhook message\.status_updated delivered\s+evt_[0-9a-f]{32}\s+✓ verified/);
    expect(output).toMatch(/✓ delivered\s+GET \/v1\/messages\//);
    expect(output).toMatch(/export PARLEY_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(output).toMatch(/export PARLEY_API_KEY=prl_sandbox_\w{32}/);
    expect(output).toContain('packages/cli/dist/cli.js send --connection');
  });
});

describe('README', () => {
  it('the SDK example runs as written against a running emulator', async () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const snippet = /## Send a message \(SDK\)\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toContain('parley.messages.waitFor');
    const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    servers.push(server);
    // The snippet is plain JavaScript; run from an example package so `@parley/sdk` resolves as installed.
    const program = run(
      ['--input-type=module', '--eval', snippet!],
      { PARLEY_API_KEY: server.sandboxKey, PARLEY_BASE_URL: server.baseUrl },
      `${root}examples/send-message`,
    );
    await until(async () => (await server.emulator.control.listMessages()).data.length === 1, 'the send');
    await server.emulator.clock.advance(5_000);

    expect(await program.exited).toBe(0);
    expect(program.output()).toMatch(/^delivered \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/m);
  });
});

describe('README webhook examples run as written', () => {
  const id = 'evt_0123456789abcdef0123456789abcdef';
  const secret = `whsec_${'R'.repeat(32)}`;
  /** Appended to a snippet: one genuine delivery and one whose body was altered, with the statuses printed. */
  const driver = (send: string) => `
import { signWebhook as signForTest } from '@parley/sdk/webhooks';
const body = JSON.stringify({ api_version: '2026-10-14', created_at: '2026-10-14T09:30:00Z', data: { message: 'hi' }, id: '${id}', livemode: false, type: 'webhook.test' });
const headers = { 'content-type': 'application/json', ...(await signForTest({ payload: body, secret: process.env.PARLEY_WEBHOOK_SECRET, id: '${id}' })) };
const genuine = await ${send}(body, headers);
const altered = await ${send}(body.replace('hi', 'ho'), headers);
console.log('statuses', genuine.status, altered.status, await altered.text());
`;
  const snippetAfter = (heading: string, nth = 0) => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const section = readme.slice(readme.indexOf(heading));
    return [...section.matchAll(/```ts\n([\s\S]*?)```/g)][nth]![1]!;
  };

  it('the web-standard handler: 204 for a signed delivery, 400 signature_mismatch for an altered body', async () => {
    const code =
      snippetAfter('## Verify a webhook') +
      driver(
        "((payload, headers) => POST(new Request('http://127.0.0.1/webhooks/parley', { method: 'POST', body: payload, headers })))",
      );
    const program = run(
      ['--input-type=module-typescript', '--eval', code],
      { PARLEY_WEBHOOK_SECRET: secret },
      `${root}examples/web-standard-receiver`,
    );

    expect(await program.exited, program.output()).toBe(0);
    expect(program.output()).toContain('statuses 204 400 signature_mismatch');
  });

  it('the Express route: 204 for a signed delivery, 400 signature_mismatch for an altered body', async () => {
    const code =
      snippetAfter('## Verify a webhook', 1) +
      `const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = 'http://127.0.0.1:' + server.address().port + '/webhooks/parley';` +
      driver('((payload, headers) => fetch(url, { method: "POST", body: payload, headers }))') +
      'server.close();';
    const program = run(
      ['--input-type=module-typescript', '--eval', code],
      { PARLEY_WEBHOOK_SECRET: secret },
      `${root}examples/express-receiver`,
    );

    expect(await program.exited, program.output()).toBe(0);
    expect(program.output()).toContain('statuses 204 400 signature_mismatch');
  });
});

describe('examples as runnable programs', () => {
  it('send-message: a missing key is a clear configuration error (exit 2)', async () => {
    const program = run(['--experimental-strip-types', 'examples/send-message/src/send-message.ts']);

    expect(await program.exited).toBe(2);
    expect(program.output()).toContain('PARLEY_API_KEY');
  });

  it('send-message: sends and waits until delivered against a running emulator', async () => {
    const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    servers.push(server);
    const program = run(['--experimental-strip-types', 'examples/send-message/src/send-message.ts'], {
      PARLEY_API_KEY: server.sandboxKey,
      PARLEY_BASE_URL: server.baseUrl,
    });
    await until(() => program.output().startsWith('sent '), 'the send');
    // The program polls every second of real time; move the frozen clock past delivery instead.
    await server.emulator.clock.advance(5_000);

    expect(await program.exited).toBe(0);
    expect(program.output()).toMatch(/^sent [0-9a-f-]{36} \(queued\) through Parley Sandbox, request req_/);
    expect(program.output()).toMatch(/delivered at \d{4}-\d{2}-\d{2}T/);
  });

  it('express-receiver: verifies real deliveries from the emulator and logs each event', async () => {
    const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    servers.push(server);
    const port = await freePort();
    const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl });
    const { application_id } = await parley.status.get();
    const endpoint = await server.emulator.control.createEndpoint(application_id, {
      url: `http://127.0.0.1:${port}/webhooks/parley`,
      events: ['message.received'],
    });
    const receiver = run(['--experimental-strip-types', 'examples/express-receiver/src/receiver.ts'], {
      PARLEY_WEBHOOK_SECRET: endpoint.secret,
      PORT: String(port),
    });
    await until(() => receiver.output().includes('listening on'), 'the receiver');

    const event = await parley.sandbox.events.create({ type: 'message.received' });
    await server.emulator.clock.advance(0);
    await server.emulator.idle();

    await until(() => receiver.output().includes(event.id), 'the logged event');
    expect(receiver.output()).toContain(`message.received ${event.id}`);
    expect((await server.emulator.control.listDeliveries({ endpointId: endpoint.id })).data[0]).toMatchObject(
      {
        status: 'delivered',
        attempts: [expect.objectContaining({ status_code: 204 })],
      },
    );
  });
});

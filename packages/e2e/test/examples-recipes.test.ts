// Every Node framework recipe of docs/webhooks.md, run as the app it is (examples-doc-snippets checks
// that each docs block is that file, byte for byte): started with Node's type stripping on the built
// SDK, given real signed deliveries by the emulator, then graded by `parley webhooks doctor` as a process.
// Bun, Deno and Hono on workerd run in the release check (packages/e2e/release), where those runtimes are.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEmulator, type Emulator } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { assertCliBuilt, type NodeProcess, runCli, startNodeProcess } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const ACTIVE_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

/** A recipe: the file docs/webhooks.md shows, and how it is served. */
interface Recipe {
  file: string;
  /** The webhook route's path. */
  path: string;
  /** The script Node runs and its arguments, given a free port. */
  command(port: number): [script: string, args: string[]];
  /** Printed once it listens. */
  ready: RegExp;
  /** Whether any other path is its own 404 (false: Next's not-found page, a 40 s compile). */
  ownNotFound: boolean;
}

const nodeRecipe = (file: string): Recipe => ({
  file,
  path: '/webhooks/parley',
  command: () => [`${root}${file}`, []],
  ready: /listening on http:\/\/127\.0\.0\.1:(\d+)\n/,
  ownNotFound: true,
});

const RECIPES: Recipe[] = [
  nodeRecipe('examples/express-receiver/src/server.ts'),
  nodeRecipe('examples/fastify-receiver/src/server.ts'),
  nodeRecipe('examples/koa-receiver/src/server.ts'),
  nodeRecipe('examples/node-http-receiver/src/server.ts'),
  nodeRecipe('examples/hono-receiver/src/node-server.ts'),
  nodeRecipe('examples/h3-receiver/src/server.ts'),
  {
    // Next's own runtime: `next dev` compiles and serves the route handler file as a Next app would
    // (`next build` alone took 2 min 15 s here: 38 s of type check, the rest compiling pages).
    file: 'examples/nextjs-receiver/src/app/api/webhooks/parley/route.ts',
    path: '/api/webhooks/parley',
    command: (port) => [
      `${root}examples/nextjs-receiver/node_modules/next/dist/bin/next`,
      ['dev', `${root}examples/nextjs-receiver`, '--hostname', '127.0.0.1', '--port', String(port)],
    ],
    ready: /Ready in /,
    ownNotFound: false,
  },
];

/** A started recipe: its process and its webhook URL. */
interface RunningRecipe {
  app: NodeProcess;
  url: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a recipe (PORT=0 where it prints the port it got) and waits until it listens and its route
 * answers an unsigned POST 400: Next compiles the route on its first request, which must not be the
 * emulator's first delivery (15 s attempt timeout).
 */
async function startRecipe(recipe: Recipe): Promise<RunningRecipe> {
  const port = recipe.ownNotFound ? 0 : await freePort();
  const [script, args] = recipe.command(port);
  const app = startNodeProcess(script, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      PARLEY_WEBHOOK_SECRET: SECRET,
      NO_COLOR: '1',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  });
  await app.waitFor(recipe.ready, 'stdout');
  const bound = port || Number(recipe.ready.exec(app.stdout())![1]);
  const url = `http://127.0.0.1:${bound}${recipe.path}`;
  const unsigned = await fetch(url, { method: 'POST', body: '{}' });
  expect([unsigned.status, await unsigned.json()]).toEqual([400, { error: 'missing_header' }]);
  return { app, url };
}

/** The event ids a recipe's handlers logged, in order: `… (evt_…)`, one line per handled event. */
function handled(app: NodeProcess): string[] {
  return [...app.stdout().matchAll(/\((evt_[0-9a-f]{32})\)$/gm)].map((match) => match[1]!);
}

beforeAll(() => {
  assertCliBuilt();
  const sdk = `${root}packages/sdk/dist/node/webhooks.js`;
  if (!existsSync(sdk)) throw new Error(`Build first (pnpm --filter @parley/sdk build): missing ${sdk}`);
});

describe.each(RECIPES)('the docs recipe $file', (recipe) => {
  let running: RunningRecipe;
  let emulator: Emulator;

  beforeAll(async () => {
    running = await startRecipe(recipe);
    emulator = createEmulator({ clock: 'frozen' });
  }, 120_000);
  afterAll(async () => {
    running.app.child.kill();
    await running.app.exited;
    await emulator.close();
  });

  it('handles each event the emulator delivers once, a replay acknowledged without running it again', async () => {
    const parley = new Parley({
      apiKey: emulator.sandboxKey,
      baseUrl: 'http://127.0.0.1:4010/v1',
      fetch: (input, init) => emulator.fetch(new Request(input, init)),
    });
    const { application_id } = await parley.status.get();
    const endpoint = await emulator.control.createEndpoint(application_id, {
      url: running.url,
      events: ['message.received', 'message.status_updated'],
      secret: SECRET,
    });
    const settle = async (ms: number) => {
      await emulator.clock.advance(ms);
      await emulator.idle();
    };

    const message = await parley.messages.send({
      type: 'template',
      connection_id: ACTIVE_CONNECTION,
      to: '+33612345678',
      template: { name: 'hello_world', language: 'en', variables: [] },
    });
    await settle(2_000); // sent
    await settle(3_000); // delivered
    const inbound = await parley.sandbox.events.create({ type: 'message.received' });
    await settle(0);
    const delivered = (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
    await emulator.control.replayDelivery(delivered.find((each) => each.event_id === inbound.id)!.id);
    await settle(0);

    const deliveries = (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
    expect(
      deliveries.map((each) => [each.status, each.attempts.map((attempt) => attempt.status_code)]),
    ).toEqual([
      ['delivered', [204]],
      ['delivered', [204]],
      ['delivered', [204]],
      ['delivered', [204]],
    ]);
    // Three events, four deliveries (one a replay): each handled exactly once, in delivery order. Each
    // log line is awaited first: output can reach us a hop behind the answer (next dev may pipe its
    // server's output through itself).
    for (const each of delivered) await running.app.waitFor(`(${each.event_id})`, 'stdout');
    expect(handled(running.app)).toEqual(delivered.map((each) => each.event_id).reverse());
    expect(running.app.stdout()).toContain(`sent ${message.id} (`);
    expect(running.app.stdout()).toContain(`delivered ${message.id} (`);
    expect(running.app.stderr()).toBe('');
  });

  // Next routes by files, so another path is its not-found page by construction (and a 40 s compile).
  if (recipe.ownNotFound) {
    it('is the whole app: a path other than the webhook route is not the receiver (404)', async () => {
      const response = await fetch(new URL('/health', running.url));
      await response.arrayBuffer();
      expect(response.status).toBe(404);
    });
  }

  it('is graded 8/8 by parley webhooks doctor', async () => {
    const { code, stdout, stderr } = await runCli(['webhooks', 'doctor', running.url, '--json'], {
      PARLEY_WEBHOOK_SECRET: SECRET,
    });
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, counts: { passed: 8, failed: 0, unchecked: 0 } });
    expect(code).toBe(0);
  });
});

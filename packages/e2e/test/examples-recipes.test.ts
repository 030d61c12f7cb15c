// Every Node framework recipe of docs/webhooks.md, run as the app it is (examples-doc-snippets checks
// that each docs block is that file, byte for byte): started with Node's type stripping on the built
// SDK, given real signed deliveries by the emulator, then graded by `parley webhooks doctor` as a process.
// Bun, Deno and Hono on workerd run in the release check (packages/e2e/release), where those runtimes are.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEmulator, type Emulator } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { assertCliBuilt, type NodeProcess, runCli, startNodeProcess } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const ACTIVE_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

/** The recipes, by the file docs/webhooks.md shows. */
const RECIPES = [
  'examples/express-receiver/src/server.ts',
  'examples/fastify-receiver/src/server.ts',
  'examples/koa-receiver/src/server.ts',
  'examples/node-http-receiver/src/server.ts',
  'examples/hono-receiver/src/node-server.ts',
];

/** A started recipe: its process and the base URL it printed. */
interface RunningRecipe {
  app: NodeProcess;
  base: string;
}

/** Starts a recipe as `node <file>` on a free port and waits for the address it prints. */
async function startRecipe(file: string): Promise<RunningRecipe> {
  const app = startNodeProcess(`${root}${file}`, [], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', PARLEY_WEBHOOK_SECRET: SECRET, NO_COLOR: '1' },
  });
  await app.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\n/, 'stdout');
  const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(app.stdout())![1]!;
  return { app, base };
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

describe.each(RECIPES)('the docs recipe %s', (file) => {
  let recipe: RunningRecipe;
  let emulator: Emulator;

  beforeAll(async () => {
    recipe = await startRecipe(file);
    emulator = createEmulator({ clock: 'frozen' });
  });
  afterAll(async () => {
    recipe.app.child.kill();
    await recipe.app.exited;
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
      url: `${recipe.base}/webhooks/parley`,
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
    // Three events, four deliveries (one a replay): each handled exactly once, in delivery order.
    expect(handled(recipe.app)).toEqual(delivered.map((each) => each.event_id).reverse());
    expect(recipe.app.stdout()).toContain(`sent ${message.id} (`);
    expect(recipe.app.stdout()).toContain(`delivered ${message.id} (`);
    expect(recipe.app.stderr()).toBe('');
  });

  it('is the whole app: a path other than the webhook route is not the receiver (404)', async () => {
    const response = await fetch(`${recipe.base}/health`);
    await response.arrayBuffer();
    expect(response.status).toBe(404);
  });

  it('is graded 8/8 by parley webhooks doctor', async () => {
    const { code, stdout, stderr } = await runCli(
      ['webhooks', 'doctor', `${recipe.base}/webhooks/parley`, '--json'],
      { PARLEY_WEBHOOK_SECRET: SECRET },
    );
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, counts: { passed: 8, failed: 0, unchecked: 0 } });
    expect(code).toBe(0);
  });
});

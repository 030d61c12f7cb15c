import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import { runCli } from './run-cli';
import type { EmulatorServer } from './start-server';

const dir = mkdtempSync(join(tmpdir(), 'parley-start-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seedFile = join(dir, 'seed.json');
writeFileSync(
  seedFile,
  JSON.stringify({
    workspaces: [
      {
        name: 'Acme',
        applications: [
          {
            name: 'Shop',
            environment: 'sandbox',
            keys: [{ key: 'prl_sandbox_0123456789abcdefghijABCDEFGHIJ01' }],
            endpoints: [{ url: 'http://127.0.0.1:3000/webhooks', events: ['webhook.test'] }],
          },
          {
            name: 'Shop (live)',
            environment: 'live',
            keys: [{ key: 'prl_live_0123456789abcdefghijABCDEFGHIJ01' }],
          },
        ],
      },
    ],
  }),
);

/** Runs `parley-emulator` in process and returns what it printed with the running server. */
async function start(args: string[]) {
  const out: string[] = [];
  const result = await runCli(['--port', '0', '--clock', 'frozen', ...args], {
    out: (line) => out.push(line),
    err: (line) => out.push(`stderr: ${line}`),
  });
  if (typeof result === 'number') throw new Error(`exit ${result}: ${out.join('\n')}`);
  return { server: result, out };
}

async function sendOne(server: EmulatorServer): Promise<void> {
  const response = await fetch(`${server.baseUrl}/messages`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.sandboxKey}`,
      'content-type': 'application/json',
      'idempotency-key': 'summary-1',
    },
    body: JSON.stringify({
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      to: '+33612345678',
      type: 'text',
      text: 'Hi',
    }),
  });
  expect(response.status).toBe(202);
}

describe('the start banner says what was loaded', () => {
  test('a seed: its workspaces, applications, keys and endpoints, in the banner and the ready line', async () => {
    const human = await start(['--seed', seedFile]);
    await human.server.close();
    expect(human.out).toContain(
      `  Seeded        1 workspace, 2 applications, 2 keys, 1 endpoint from ${seedFile}`,
    );
    expect(human.out.at(-1)).toMatch(/^Parley emulator ready on /);

    const json = await start(['--seed', seedFile, '--json']);
    await json.server.close();
    expect(json.out).toHaveLength(1);
    expect(JSON.parse(json.out[0]!)).toMatchObject({
      ready: true,
      seeded: { workspaces: 1, applications: 2, keys: 2, endpoints: 1 },
      restored: null,
    });
  });

  test('nothing loaded: no extra line, both fields null', async () => {
    const human = await start([]);
    await human.server.close();
    expect(human.out.join('\n')).not.toMatch(/Seeded|Restored/);
    const json = await start(['--json']);
    await json.server.close();
    expect(JSON.parse(json.out[0]!)).toMatchObject({ seeded: null, restored: null });
  });

  test('a data dir: the messages and pending deliveries it restored, and that the seed was not applied', async () => {
    const dataDir = join(dir, 'data');
    const first = await start(['--data-dir', dataDir, '--seed', seedFile]);
    expect(first.out.join('\n')).toContain('Seeded        1 workspace');
    await sendOne(first.server);
    // Frozen clock, never advanced: the test delivery is never attempted and stays pending.
    const control = first.server.emulator.control;
    const app = (await control.listApplications()).data[0]!;
    const endpoint = await control.createEndpoint(app.id, {
      url: 'http://127.0.0.1:9/webhooks',
      events: ['webhook.test'],
    });
    await control.testEndpoint(endpoint.id);
    await first.server.close();

    const again = await start(['--data-dir', dataDir, '--seed', seedFile]);
    await again.server.close();
    expect(again.out).toContain(`  Restored      1 message, 1 pending delivery from ${dataDir}`);
    expect(again.out).toContain(
      `  Seed          ${seedFile} not applied (state restored); POST /_emulator/reset applies it`,
    );
    expect(again.out.join('\n')).not.toContain('Seeded');

    const json = await start(['--data-dir', dataDir, '--json']);
    await json.server.close();
    expect(JSON.parse(json.out[0]!)).toMatchObject({
      seeded: null,
      restored: { messages: 1, pending_deliveries: 1 },
    });
  });
});

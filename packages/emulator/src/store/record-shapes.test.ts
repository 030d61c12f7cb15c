import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createAppWithKey, templateSend, testEmulator } from '../_testing/test-emulator';
import { JOURNAL_NAME, loadDirectory } from './_load-directory';
import { JOURNAL_LINE, SNAPSHOT_FILE } from './_record-shapes';
import { describeProblem } from './_shape';
import { filePersistence } from './file-persistence';

const parent = mkdtempSync(join(tmpdir(), 'parley-shapes-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const LIVE_KEY = 'prl_live_ShapesOfEveryRecordKey0000000001';
const CONNECTION = '5d1e0f3a-2b4c-4d6e-8f0a-1b2c3d4e5f61';

/** The collections named by the journal lines of `dir`. */
function journaledKinds(dir: string): string[] {
  const kinds = new Set<string>();
  for (const name of readdirSync(dir).filter((found) => JOURNAL_NAME.test(found))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (line) for (const entry of JSON.parse(line.slice(17))) kinds.add(entry.c);
    }
  }
  return [...kinds].sort();
}

describe('the shape checks accept every record the emulator writes', () => {
  test('journal lines and the snapshot of a state holding every kind of record load back', async () => {
    const dir = mkdtempSync(join(parent, 'data-'));
    const persistence = filePersistence({ dataDir: dir });
    const { emulator, send } = testEmulator(
      {
        dataDir: dir,
        seed: {
          workspaces: [
            {
              name: 'Acme',
              applications: [
                {
                  name: 'Shop (live)',
                  environment: 'live',
                  keys: [{ key: LIVE_KEY }],
                  connections: [
                    {
                      id: CONNECTION,
                      phone_number: '+14155550101',
                      templates: [{ name: 'shipping_update', language: 'en', body: 'Hi {{1}}.' }],
                    },
                  ],
                },
              ],
            },
          ],
        },
      },
      // Snapshots only when the control API commits: the sends and steps below stay in the journal.
      { ...persistence, changed: () => {} },
    );
    await emulator.ready;
    const own = await emulator.control.createWorkspace({ name: 'Own clock', clock: 'frozen' });
    const { app: live } = await createAppWithKey(emulator, 'live', { workspaceId: own.id });
    const connection = await emulator.control.createConnection(live.id, { phone_number: '+14155550102' });
    const [sandbox] = (await emulator.control.listApplications()).data;
    const endpoint = await emulator.control.createEndpoint(sandbox!.id, {
      url: 'http://127.0.0.1:9/hook',
      events: ['message.status_updated', 'webhook.test'],
    });
    await emulator.control.setChaos(endpoint.id, { duplicate: { rate: 0.5 }, seed: 7 });
    await emulator.control.rotateSecret(endpoint.id);
    await emulator.control.testEndpoint(endpoint.id);
    await emulator.control.receiveInbound(connection.id, { from: '+33612345678', text: 'Bonjour' });

    expect((await send(templateSend())).status).toBe(202);
    expect((await send(templateSend({ to: '+33612340000' }))).status).toBe(202);
    await emulator.clock.advance(5_000);
    await emulator.idle();
    expect(journaledKinds(dir)).toEqual(['deliveries', 'idempotency', 'messages']);
    expect(() => loadDirectory(dir)).not.toThrow();

    await emulator.control.disconnectConnection(connection.id);
    await emulator.close();
    const { persisted } = loadDirectory(dir);
    const state = persisted!.state;
    expect(Object.keys(state.messages)).toHaveLength(3);
    expect(Object.values(state.webhooks.deliveries).some((delivery) => delivery.attempts.length > 0)).toBe(
      true,
    );
    expect(Object.values(state.webhooks.endpoints)[0]).toMatchObject({
      chaos: expect.any(Object),
      previous_secret: expect.any(Object),
    });
    expect(state.connections[CONNECTION]!.templates).toHaveLength(1);
    expect(Object.keys(state.windows)).toHaveLength(1);
    expect(state.workspaces[own.id]!.clock).toMatchObject({ mode: 'frozen' });
    expect(Object.keys(state.rate_limits).length).toBeGreaterThan(0);
    expect(state.events.length).toBeGreaterThan(0);
  });
});

describe('what a shape check says', () => {
  test('the path to the first problem and what was expected there, never the value', () => {
    const problem = (shape: typeof JOURNAL_LINE, value: unknown) => {
      const found = shape(value);
      return found === undefined ? undefined : describeProblem(found);
    };
    expect(problem(JOURNAL_LINE, [])).toBeUndefined();
    expect(problem(JOURNAL_LINE, {})).toBe('expected an array');
    expect(problem(JOURNAL_LINE, [{ c: 'windows', id: 'w', v: 'secret-value' }])).toBe(
      '[0].v: expected a finite number',
    );
    expect(problem(JOURNAL_LINE, [{ c: 'windows', id: 'w' }])).toBeUndefined();
    expect(problem(JOURNAL_LINE, [{ c: 'windows', id: 'w', x: 1 }])).toBe('[0].x: not expected here');
    expect(problem(JOURNAL_LINE, [{ c: 'daily_sends', id: 'd', v: { day: '2026-10-14', count: -1 } }])).toBe(
      '[0].v.count: expected a whole number from 0',
    );
    expect(problem(SNAPSHOT_FILE, { format: 'parley-emulator-state' })).toBe('version: missing');
  });
});

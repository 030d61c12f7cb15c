import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEmulatorBin as runBin, startEmulatorBin as startBin, stopEmulatorBins } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { parseSeed, SeedError } from './parse-seed';
import { MAX_SEED_BYTES, readSeedFile } from './read-seed-file';
import type { SeedFile } from './seed-types';

afterEach(stopEmulatorBins);

const WORKSPACE = '3d0c4b7a-6a8e-4f2b-9c1d-2e3f4a5b6c7d';
const SANDBOX_APP = '3d0c4b7a-6a8e-4f2b-9c1d-2e3f4a5b6c01';
const SANDBOX_KEY = 'prl_sandbox_TeamSharedSandboxKey000000000001';
const LIVE_KEY = 'prl_live_TeamSharedLiveKey000000000000001';
const SECRET = 'whsec_TeamSharedSigningSecret000000001';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function seed(url: string): SeedFile {
  return {
    workspaces: [
      {
        id: WORKSPACE,
        name: 'Acme',
        applications: [
          {
            id: SANDBOX_APP,
            name: 'Shop (sandbox)',
            environment: 'sandbox',
            keys: [{ key: SANDBOX_KEY, scopes: ['system.status.read', 'sandbox.events.create'] }],
            endpoints: [{ url, events: ['webhook.test'], secret: SECRET }],
          },
          {
            name: 'Shop (live)',
            environment: 'live',
            keys: [{ key: LIVE_KEY }],
            connections: [{ phone_number: '+14155550100', name: 'Acme US' }],
          },
        ],
      },
    ],
  };
}

async function receiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('seed files', () => {
  test('create workspaces, applications, keys with chosen values and endpoints with chosen secrets', async () => {
    const { url, received } = await receiver();
    const { call, emulator } = testEmulator({ seed: seed(url) });
    const status = await call('GET', '/v1/status', { key: SANDBOX_KEY });
    expect(status.body).toMatchObject({
      application_id: SANDBOX_APP,
      workspace_id: WORKSPACE,
      environment: 'sandbox',
    });
    expect(status.body.scopes).toEqual(['system.status.read', 'sandbox.events.create']);
    const live = await call('GET', '/v1/connections', { key: LIVE_KEY });
    expect(live.body.data).toMatchObject([{ phone_number: '+14155550100', name: 'Acme US', livemode: true }]);
    expect((await call('GET', '/v1/status')).status).toBe(200);

    await call('POST', '/v1/sandbox/events', { key: SANDBOX_KEY, body: { type: 'webhook.test' } });
    await emulator.idle();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const id = delivery!.headers['parley-event-id'] as string;
    const timestamp = delivery!.headers['parley-timestamp'] as string;
    const expected = createHmac('sha256', SECRET)
      .update(`${id}.${timestamp}.${delivery!.body}`)
      .digest('hex');
    expect(delivery!.headers['parley-signature']).toBe(`v1=${expected}`);
  });

  test('reset returns to the seed', async () => {
    const { call, emulator } = testEmulator({ seed: seed('http://127.0.0.1:9/hook') });
    await emulator.control.createApplication({ name: 'Temp', environment: 'sandbox' });
    expect((await emulator.control.listApplications()).data).toHaveLength(4);
    await call('POST', '/_emulator/reset', { body: {} });
    expect((await emulator.control.listApplications()).data.map((app) => app.name)).toEqual([
      'Sandbox application',
      'Shop (sandbox)',
      'Shop (live)',
    ]);
    expect((await call('GET', '/v1/status', { key: SANDBOX_KEY })).status).toBe(200);
  });

  test.each([
    [{ workspaces: {} }, 'seed workspaces: must be an array'],
    [{ workspaces: [{}] }, 'seed workspaces[0].name: must be a string'],
    [{ workspaces: [{ name: 'A', colour: 'red' }] }, 'seed workspaces[0].colour: unknown field'],
    [{ workspaces: [{ name: 'A', id: 'ws-1' }] }, 'seed workspaces[0].id: must be a UUID'],
    [
      { workspaces: [{ name: 'A', applications: [{ name: 'B', environment: 'staging' }] }] },
      'seed workspaces[0].applications[0].environment: must be "live" or "sandbox"',
    ],
    [
      {
        workspaces: [
          { name: 'A', applications: [{ name: 'B', environment: 'live', keys: [{ key: SANDBOX_KEY }] }] },
        ],
      },
      'seed workspaces[0].applications[0].keys[0].key: must be prl_live_ + 32 base62 characters',
    ],
    [
      {
        workspaces: [
          {
            name: 'A',
            applications: [
              {
                name: 'B',
                environment: 'sandbox',
                endpoints: [{ url: 'http://127.0.0.1/x', events: ['x'] }],
              },
            ],
          },
        ],
      },
      'seed workspaces[0].applications[0].endpoints[0].events: unknown event type "x"',
    ],
    [
      {
        workspaces: [
          {
            name: 'A',
            applications: [
              {
                name: 'B',
                environment: 'sandbox',
                endpoints: [{ url: 'http://127.0.0.1/x', events: [], secret: 'abc' }],
              },
            ],
          },
        ],
      },
      'seed workspaces[0].applications[0].endpoints[0].secret: must be whsec_ + 32 base62 characters',
    ],
    [
      {
        workspaces: [
          {
            name: 'A',
            applications: [
              { name: 'B', environment: 'sandbox', connections: [{ phone_number: '+14155550100' }] },
            ],
          },
        ],
      },
      'seed workspaces[0].applications[0].connections[0]: connections can only be added to live applications',
    ],
  ])('invalid seed %j: %s', (input, message) => {
    expect(() => parseSeed(input)).toThrow(SeedError);
    expect(() => parseSeed(input)).toThrow(message);
  });

  test('the bin: --seed FILE works, a broken one exits 2 naming the file and the place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-seed-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const good = join(dir, 'seed.json');
    writeFileSync(good, JSON.stringify(seed('http://127.0.0.1:9/hook')));
    const running = await startBin(['--seed', good]);
    const status = await fetch(`${running.ready.base_url}/status`, {
      headers: { authorization: `Bearer ${LIVE_KEY}` },
    });
    expect((await status.json()).environment).toBe('live');
    running.child.kill('SIGKILL');

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ workspaces: [{ name: 'A', applications: [{ name: 'B' }] }] }));
    const result = await runBin(['--seed', broken]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${broken}: seed workspaces[0].applications[0].environment`);
    const refusedUrl = join(dir, 'refused.json');
    writeFileSync(
      refusedUrl,
      JSON.stringify({
        workspaces: [
          {
            name: 'A',
            applications: [
              {
                name: 'B',
                environment: 'sandbox',
                endpoints: [{ url: 'http://127.0.0.1/x', events: ['webhook.test'] }],
              },
            ],
          },
        ],
      }),
    );
    const strict = await runBin(['--seed', refusedUrl, '--url-policy', 'strict', '--port', '0']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('seed workspaces[0].applications[0].endpoints[0].url:');
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ nope');
    expect((await runBin(['--seed', notJson])).stderr).toContain('is not valid JSON');
  });
});

describe('a seed file is read bounded', () => {
  test('16 MiB is read (here: not JSON), one byte more is refused from its size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-seed-size-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'seed.json');
    writeFileSync(file, '');
    truncateSync(file, MAX_SEED_BYTES); // sparse: 16 MiB of NUL bytes
    expect(MAX_SEED_BYTES).toBe(16 * 1024 * 1024);
    await expect(readSeedFile(file)).rejects.toThrow(`seed file ${file} is not valid JSON: `);
    truncateSync(file, MAX_SEED_BYTES + 1);
    await expect(readSeedFile(file)).rejects.toThrow(
      new Error(`seed file ${file} is larger than the 16 MiB a seed file may hold`),
    );
    await expect(readSeedFile(dir)).rejects.toThrow(
      new Error(`seed file ${dir} is not a regular file (a directory)`),
    );
  });
});

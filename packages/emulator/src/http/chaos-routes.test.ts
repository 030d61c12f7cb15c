import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A receiver that refuses anything unverifiable the simplest way: 400 unless it is the genuine copy. */
async function refusingForgeries(): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    // Forged copies here are the only ones without a current timestamp or with another secret:
    // good enough to tell them apart, the SDK's verification is tested with the dispatcher.
    request.on('end', () =>
      response
        .writeHead(
          request.headers['parley-timestamp'] && isFresh(request.headers['parley-timestamp'] as string)
            ? 204
            : 400,
        )
        .end(),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

const isFresh = (timestamp: string) => Math.abs(Number(timestamp) - Date.now() / 1000) < 300;

async function endpointOf(
  call: ReturnType<typeof testEmulator>['call'],
  emulator: ReturnType<typeof testEmulator>['emulator'],
  url: string,
) {
  const app = (await emulator.control.listApplications()).data[0]!;
  const created = await call('POST', `/_emulator/applications/${app.id}/endpoints`, {
    body: { url, events: ['webhook.test'] },
  });
  return created.body.id as string;
}

describe('PUT/GET/DELETE /_emulator/endpoints/{id}/chaos', () => {
  test('PUT sets chaos and answers it; GET shows it counting down; DELETE turns it off', async () => {
    const { call, emulator } = testEmulator();
    const id = await endpointOf(call, emulator, 'http://127.0.0.1:9/hook');
    const put = await call('PUT', `/_emulator/endpoints/${id}/chaos`, {
      body: { duplicate: { next: 2 }, stale_timestamp: { rate: 0.1 }, seed: 42 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      endpoint_id: id,
      seed: 42,
      duplicate: { next: 2 },
      stale_timestamp: { rate: 0.1 },
      applied: {},
    });
    await call('POST', `/_emulator/endpoints/${id}/test`);
    expect((await call('GET', `/_emulator/endpoints/${id}/chaos`)).body).toMatchObject({
      duplicate: { next: 1 },
      applied: { duplicate: 1 },
    });
    expect((await call('DELETE', `/_emulator/endpoints/${id}/chaos`)).status).toBe(204);
    expect((await call('GET', `/_emulator/endpoints/${id}/chaos`)).body).toEqual({
      endpoint_id: id,
      seed: null,
      applied: {},
    });
  });

  test('PUT without a seed draws one and shows it', async () => {
    const { call, emulator } = testEmulator();
    const id = await endpointOf(call, emulator, 'http://127.0.0.1:9/hook');
    const put = await call('PUT', `/_emulator/endpoints/${id}/chaos`, { body: { delayed: { rate: 0.5 } } });
    expect(put.body.seed).toEqual(expect.any(Number));
  });

  test('refuses a bad body (400 naming the field), an unknown endpoint (404), a form (415)', async () => {
    const { call, emulator } = testEmulator();
    const id = await endpointOf(call, emulator, 'http://127.0.0.1:9/hook');
    const unknownKind = await call('PUT', `/_emulator/endpoints/${id}/chaos`, {
      body: { lost: { next: 1 } },
    });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.error).toMatchObject({
      code: 'validation_error',
      details: { field: 'lost', reason: 'unknown_kind' },
    });
    const badRate = await call('PUT', `/_emulator/endpoints/${id}/chaos`, {
      body: { duplicate: { rate: 2 } },
    });
    expect(badRate.body.error.details).toEqual({ field: 'duplicate.rate', reason: 'invalid_value' });
    const missing = await call('GET', '/_emulator/endpoints/00000000-0000-4000-8000-000000000000/chaos');
    expect(missing.status).toBe(404);
    const form = await call('PUT', `/_emulator/endpoints/${id}/chaos`, {
      raw: 'duplicate=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
  });

  test('chaos copies are marked in GET /_emulator/deliveries and in the activity stream', async () => {
    const { call, emulator } = testEmulator();
    const id = await endpointOf(call, emulator, await refusingForgeries());
    await call('PUT', `/_emulator/endpoints/${id}/chaos`, { body: { stale_timestamp: { next: 1 } } });
    await call('POST', `/_emulator/endpoints/${id}/test`);
    await emulator.clock.advance(0);
    await emulator.idle();

    const [delivery] = (await call('GET', `/_emulator/deliveries?endpoint_id=${id}`)).body.data;
    expect(delivery).toMatchObject({ status: 'delivered', chaos: ['stale_timestamp'] });
    expect(
      delivery.attempts.map(({ chaos, status_code, error }: Record<string, unknown>) => ({
        chaos,
        status_code,
        error,
      })),
    ).toEqual([
      { chaos: 'stale_timestamp', status_code: 400, error: null },
      { chaos: undefined, status_code: 204, error: null },
    ]);

    const activity = (await call('GET', '/_emulator/activity?type=delivery')).body.data;
    // Newest first: the genuine attempt, the chaos copy's attempt (marked), the queued delivery.
    expect(
      activity.map((item: { chaos?: string; status: string }) => [item.chaos ?? null, item.status]),
    ).toEqual([
      [null, 'delivered'],
      ['stale_timestamp', 'pending'],
      [null, 'pending'],
    ]);
  });
});

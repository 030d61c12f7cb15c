import { DEFAULT_APPLICATION_ID, DEFAULT_WORKSPACE_ID } from '@parley/emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { describeFault } from './_faults';
import { advanceEmulatorClock } from './advance';
import { endpointChaos } from './chaos';
import { emulatorClock } from './clock';
import { addFault } from './faults-add';
import { clearFaults } from './faults-clear';
import { listFaults } from './faults-list';
import { magicNumbers } from './magic-numbers';
import { resetEmulator } from './reset';

const noCall = { fetch: () => Promise.reject(new Error('no call expected')) };

describe('parley emulator clock/reset --workspace', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it("shows a workspace's own clock, moves it alone, and resets that workspace", async () => {
    const workspace = await emulator.control.createWorkspace({
      name: 'tests',
      clock: 'frozen',
      now: '2030-01-01T00:00:00.000Z',
    });
    const global = await emulatorClock({}, context());
    expect(await emulatorClock({ workspace: workspace.id }, context())).toEqual({
      workspace_id: workspace.id,
      now: '2030-01-01T00:00:00.000Z',
      mode: 'frozen',
      own_clock: true,
    });
    expect(await advanceEmulatorClock({ duration: '5s', workspace: workspace.id }, context())).toEqual({
      now: '2030-01-01T00:00:05.000Z',
      advanced_ms: 5_000,
      workspace_id: workspace.id,
    });
    expect((await emulatorClock({}, context())).now).toBe(global.now);
    expect(await resetEmulator({ workspace: workspace.id }, context())).toEqual({
      ok: true,
      emulator: 'http://127.0.0.1:4010',
      workspace_id: workspace.id,
    });
  });

  it('the seed workspace shares the global clock: advancing it alone is exit 1 (workspace_clock_shared)', async () => {
    expect(await emulatorClock({ workspace: DEFAULT_WORKSPACE_ID }, context())).toMatchObject({
      own_clock: false,
    });
    await expect(
      advanceEmulatorClock({ duration: '1s', workspace: DEFAULT_WORKSPACE_ID }, context()),
    ).rejects.toMatchObject({ code: 1, message: expect.stringContaining('workspace_clock_shared') });
  });

  it('a --workspace that is not an id is exit 2 before any call; an unknown one is exit 1', async () => {
    await expect(emulatorClock({ workspace: 'nope' }, context(noCall))).rejects.toMatchObject({ code: 2 });
    await expect(resetEmulator({ workspace: '1' }, context(noCall))).rejects.toMatchObject({ code: 2 });
    await expect(
      emulatorClock({ workspace: '00000000-0000-4000-8000-000000000000' }, context()),
    ).rejects.toMatchObject({ code: 1, message: expect.stringContaining('not_found') });
  });
});

describe('parley emulator faults, magic-numbers, chaos', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());
  const sendOnce = () =>
    emulator.fetch(
      new Request('http://127.0.0.1:4010/v1/messages', {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.sandboxKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ connection_id: 'x', to: '+33612345678', text: 'x' }),
      }),
    );

  it('adds a fault the next matching request gets, lists it used up, clears it', async () => {
    const fault = await addFault(
      {
        status: '503',
        code: 'internal_error',
        method: 'POST',
        path: '/v1/messages',
        retryAfter: '2',
        times: '1',
      },
      context(),
    );
    expect(fault).toMatchObject({
      object: 'fault',
      method: 'POST',
      path: '/v1/messages',
      times: 1,
      remaining: 1,
      fault: { status: 503, code: 'internal_error', retry_after: 2 },
    });
    const answer = await sendOnce();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(((await answer.json()) as { error: { details: unknown } }).error.details).toMatchObject({
      fault_id: fault.id,
    });
    expect((await sendOnce()).status).not.toBe(503);
    expect(await listFaults({}, context())).toEqual([{ ...fault, remaining: 0 }]);
    expect(await clearFaults({ id: fault.id }, context())).toEqual({ ok: true, fault_id: fault.id });
    await addFault({ hang: true }, context());
    await addFault({ delayMs: '5' }, context());
    expect((await listFaults({}, context())).map((each) => each.fault)).toEqual([
      { hang: true },
      { delay_ms: 5 },
    ]);
    expect(await clearFaults({}, context())).toEqual({ ok: true, fault_id: null });
    expect(await listFaults({}, context())).toEqual([]);
    await expect(
      clearFaults({ id: '00000000-0000-4000-8000-000000000000' }, context()),
    ).rejects.toMatchObject({ code: 1, message: expect.stringContaining('not_found') });
  });

  it('ties a fault to a key: --key-prefix (its start) or --key-id (an unknown id is exit 1)', async () => {
    const other = await addFault(
      { status: '503', code: 'internal_error', keyPrefix: 'prl_sandbox_zzzzzzzzzz' },
      context(),
    );
    expect((await sendOnce()).status).not.toBe(503);
    const prefix = emulator.sandboxKey.slice(0, 20);
    const fault = await addFault({ status: '503', code: 'internal_error', keyPrefix: prefix }, context());
    expect(fault).toMatchObject({ key_id: null, key_prefix: prefix, remaining: 1 });
    expect((await sendOnce()).status).toBe(503);
    expect(describeFault(fault)).toBe(
      `${fault.id}  any method any /v1 path key ${prefix}…  → 503 internal_error  (1 of 1 left)`,
    );
    expect((await listFaults({}, context())).find((each) => each.id === other.id)?.remaining).toBe(1);
    await expect(
      addFault({ drop: true, keyId: '00000000-0000-4000-8000-000000000000' }, context()),
    ).rejects.toMatchObject({ code: 1, message: expect.stringContaining('not_found') });
    await clearFaults({}, context());
  });

  it('sends the flags as given and names the flag the emulator refuses: exit 2, nothing added', async () => {
    const answer =
      'the answer (--status with --code, --hang, --drop or --delay-ms) must be one of {"status","code","retry_after"?}, {"hang":true}, {"drop":true}, {"delay_ms"}.';
    for (const [options, message] of [
      [{}, answer],
      [{ hang: true, drop: true }, answer],
      [{ status: '503' }, answer],
      [{ code: 'internal_error' }, answer],
      [{ status: '200', code: 'ok' }, '--status must be an HTTP error status from 400 to 599.'],
      [{ status: '503', code: 'Bad Code' }, '--code must be an error code such as "rate_limited".'],
      [{ drop: true, retryAfter: '2' }, answer],
      [{ drop: true, times: '0' }, '--times must be a whole number from 1 to 10000.'],
      [
        { drop: true, path: '/messages' },
        '--path must be a /v1 path such as "/v1/messages" ("*" for one segment).',
      ],
      [{ delayMs: 'soon' }, '--delay-ms must be a whole number from 1 to 600000.'],
      [{ drop: true, keyId: 'nope' }, '--key-id must be the id (UUID) of an API key.'],
      [
        { drop: true, keyPrefix: 'sandbox_AbCd' },
        '--key-prefix must be the start of an API key, e.g. "prl_sandbox_AbCd".',
      ],
      [
        { drop: true, keyPrefix: 'prl_' },
        '--key-prefix must be the start of an API key, e.g. "prl_sandbox_AbCd".',
      ],
      [
        { drop: true, keyId: '00000000-0000-4000-8000-000000000000', keyPrefix: 'prl_sandbox_AbCd' },
        '--key-prefix: Give key_id or key_prefix, not both.',
      ],
    ] as const) {
      await expect(addFault(options, context()), JSON.stringify(options)).rejects.toMatchObject({
        code: 2,
        message,
        body: { error: { code: 'usage_error', message } },
      });
    }
    expect(await listFaults({}, context())).toEqual([]);
    await expect(clearFaults({ id: 'x' }, context(noCall))).rejects.toMatchObject({ code: 2 });
  });

  it("has no bound of its own: the emulator's take effect, at the limit and one past it", async () => {
    const sent: unknown[] = [];
    const recording = context({
      fetch: async (request) => {
        sent.push(await request.clone().json());
        return emulator.fetch(request);
      },
    });
    const limits = [
      ['times', '10000', '10001', '--times must be a whole number from 1 to 10000.'],
      ['delayMs', '600000', '600001', '--delay-ms must be a whole number from 1 to 600000.'],
    ] as const;
    for (const [flag, atLimit, past, message] of limits) {
      const options = flag === 'times' ? { hang: true } : {};
      expect(await addFault({ ...options, [flag]: atLimit }, recording)).toMatchObject({
        remaining: expect.any(Number),
      });
      await expect(addFault({ ...options, [flag]: past }, recording)).rejects.toMatchObject({
        code: 2,
        message,
      });
    }
    await expect(
      addFault({ status: '599', code: 'x', retryAfter: '86401' }, recording),
    ).rejects.toMatchObject({ code: 2, message: '--retry-after must be whole seconds from 0 to 86400.' });
    await expect(addFault({ status: '600', code: 'x' }, recording)).rejects.toMatchObject({
      code: 2,
      message: '--status must be an HTTP error status from 400 to 599.',
    });
    // Each went to the emulator as a number: the CLI converts, it does not judge.
    expect(sent).toEqual([
      { times: 10_000, fault: { hang: true } },
      { times: 10_001, fault: { hang: true } },
      { fault: { delay_ms: 600_000 } },
      { fault: { delay_ms: 600_001 } },
      { fault: { status: 599, code: 'x', retry_after: 86_401 } },
      { fault: { status: 600, code: 'x' } },
    ]);
    // Text that is no number goes as text (NaN would be sent as null, read as "not given").
    await expect(addFault({ hang: true, times: '1e999' }, recording)).rejects.toMatchObject({
      code: 2,
      message: '--times must be a whole number from 1 to 10000.',
    });
    expect(sent.at(-1)).toEqual({ times: '1e999', fault: { hang: true } });
    await clearFaults({}, context());
  });

  it('lists the magic recipients', async () => {
    const numbers = await magicNumbers({}, context());
    expect(numbers).toContainEqual({
      number: '+15550101006',
      behaviour: 'rate_limited',
      description: expect.any(String),
    });
    expect(numbers.length).toBeGreaterThanOrEqual(7);
  });

  it("sets, shows and turns off an endpoint's chaos", async () => {
    const endpoint = await emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: 'http://127.0.0.1:9/webhooks',
      events: ['webhook.test'],
    });
    const set = await endpointChaos(
      {
        endpointId: endpoint.id,
        duplicate: 'next:2',
        staleTimestamp: 'rate:0.1',
        delayed: 'next:1',
        delayMs: '5000',
        seed: '42',
      },
      context(),
    );
    expect(set).toEqual({
      action: 'set',
      chaos: {
        endpoint_id: endpoint.id,
        seed: 42,
        duplicate: { next: 2 },
        stale_timestamp: { rate: 0.1 },
        delayed: { next: 1, delay_ms: 5000 },
        applied: {},
      },
    });
    expect(await endpointChaos({ endpointId: endpoint.id }, context())).toEqual({ ...set, action: 'show' });
    expect(await endpointChaos({ endpointId: endpoint.id, off: true }, context())).toEqual({
      action: 'off',
      chaos: { endpoint_id: endpoint.id, seed: null, applied: {} },
    });
    for (const options of [
      { endpointId: 'x' },
      { endpointId: endpoint.id, duplicate: 'twice' },
      { endpointId: endpoint.id, duplicate: 'next:1', off: true },
      { endpointId: endpoint.id, seed: '1' },
    ]) {
      await expect(endpointChaos(options, context(noCall)), JSON.stringify(options)).rejects.toMatchObject({
        code: 2,
      });
    }
    // The amounts are the emulator's to judge: what it refuses is exit 2 naming the flag.
    for (const [options, message] of [
      [{ duplicate: 'rate:2' }, '--duplicate rate:R must be a number from 0 to 1.'],
      [{ duplicate: 'rate:' }, '--duplicate rate:R must be a number from 0 to 1.'],
      [{ duplicate: 'next:0' }, '--duplicate next:N must be a whole number from 1 to 1000.'],
      [{ outOfOrder: 'next:1001' }, '--out-of-order next:N must be a whole number from 1 to 1000.'],
      [{ delayMs: '5' }, '--delayed must be {"rate": 0 to 1} or {"next": N}.'],
      [
        { delayed: 'next:1', delayMs: '21600001' },
        '--delay-ms must be whole milliseconds from 1 to 21600000 (6 h).',
      ],
      [{ duplicate: 'next:1', seed: '4294967296' }, '--seed must be a whole number from 0 to 4294967295.'],
    ] as const) {
      await expect(
        endpointChaos({ endpointId: endpoint.id, ...options }, context()),
        message,
      ).rejects.toMatchObject({
        code: 2,
        message,
      });
    }
    expect(
      await endpointChaos(
        {
          endpointId: endpoint.id,
          outOfOrder: 'next:1000',
          delayed: 'rate:1',
          delayMs: '21600000',
          seed: '4294967295',
        },
        context(),
      ),
    ).toMatchObject({
      chaos: {
        seed: 4_294_967_295,
        out_of_order: { next: 1000 },
        delayed: { rate: 1, delay_ms: 21_600_000 },
      },
    });
    await endpointChaos({ endpointId: endpoint.id, off: true }, context());
    await expect(
      endpointChaos({ endpointId: '00000000-0000-4000-8000-000000000000' }, context()),
    ).rejects.toMatchObject({ code: 1 });
  });
});

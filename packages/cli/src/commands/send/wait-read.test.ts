import { SANDBOX_ACTIVE_CONNECTION_ID } from '@parley/emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { openApiSession } from '../../client/api-session';
import { followMessage } from '../../client/follow-message';
import { send } from './index';

const TO = '+33612345678';

describe('send --wait read in the sandbox, where messages stop at delivered', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('is a usage error (exit 2) before anything is sent', async () => {
    const before = (await emulator.control.listMessages()).data.length;
    const refusal = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'never read', wait: 'read' },
      context(),
    ).catch((error) => error);
    expect(refusal).toMatchObject({
      code: 2,
      message: expect.stringContaining('sandbox messages stop at delivered and are never read'),
    });
    expect(refusal.message).toContain('--wait delivered');
    expect((await emulator.control.listMessages()).data).toHaveLength(before);
  });

  it('following a sandbox message to read ends at once (exit 2), saying how to follow it', async () => {
    const run = context();
    const message = await send({ connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'sent' }, run);
    const api = await openApiSession({}, run);
    const started = Date.now();
    const refusal = await followMessage(
      api,
      message,
      { until: 'read', timeoutMs: 60_000, intervalMs: 1_000 },
      run,
    ).catch((error) => error);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(refusal).toMatchObject({
      code: 2,
      message: expect.stringContaining(`parley messages get ${message.id} --watch`),
    });
  });
});

import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator } from '../_testing/test-emulator';

const receivers: TestReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

describe('POST /_emulator/endpoints/{id}/test', () => {
  test.each([
    ['live', true],
    ['sandbox', false],
  ] as const)('a %s application’s webhook.test carries livemode %s', async (environment, livemode) => {
    const { call, emulator } = testEmulator();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { app } = await createAppWithKey(emulator, environment);
    const endpoint = await emulator.control.createEndpoint(app.id, {
      url: receiver.url,
      events: ['message.received'],
    });
    const answer = await call('POST', `/_emulator/endpoints/${endpoint.id}/test`);
    expect(answer.status).toBe(202);
    await emulator.idle();
    expect(receiver.requests).toHaveLength(1);
    const event = JSON.parse(receiver.requests[0]!.body.toString());
    expect(event).toMatchObject({ id: answer.body.event_id, type: 'webhook.test', livemode });
  });
});

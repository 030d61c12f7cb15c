import { describe, expect, test } from 'vitest';
import { templateSend, testEmulator, textSend } from '../_testing/test-emulator';

describe('send input rules count characters as code points', () => {
  test('client_reference: 128 emoji accepted, 129 refused', async () => {
    const { send } = testEmulator();
    const accepted = await send(templateSend({ client_reference: '😀'.repeat(128) }));
    expect(accepted.status).toBe(202);
    expect(accepted.body.client_reference).toBe('😀'.repeat(128));
    const refused = await send(templateSend({ client_reference: '😀'.repeat(129) }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual({ field: 'client_reference', reason: 'too_long' });
  });

  test('text: 4096 emoji accepted, 4097 refused', async () => {
    const { send } = testEmulator();
    expect((await send(textSend({ text: '😀'.repeat(4096) }))).status).toBe(202);
    const refused = await send(textSend({ text: '😀'.repeat(4097) }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('text');
  });

  test('to: 8 digits accepted, 7 refused', async () => {
    const { send } = testEmulator();
    expect((await send(templateSend({ to: '+12345678' }))).status).toBe(202);
    const refused = await send(templateSend({ to: '+1234567' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('to');
  });
});

import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';

// The control routes run under two h3 middlewares: publishChanges outside sameOriginOnly, so a
// change refused by the origin guard or by its handler is in the feed with the status it got.
describe('control changes in the activity feed', () => {
  test('each change with its status, request id and application; no read, no unknown path', async () => {
    const { call } = testEmulator();
    const app = (await call('GET', '/_emulator/applications?limit=1')).body.data[0];
    const created = await call('POST', `/_emulator/applications/${app.id}/keys`, { body: {} });
    const refused = await call('POST', '/_emulator/reset', { headers: { origin: 'https://evil.example' } });
    const invalid = await call('POST', '/_emulator/clock/advance', {
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    const unknownId = await call('DELETE', '/_emulator/keys/%5F%5Fproto%5F%5F');
    await call('POST', '/_emulator/no-such-route', { body: {} });
    expect([created.status, refused.status, invalid.status, unknownId.status]).toEqual([201, 403, 400, 404]);
    expect(unknownId.body.error.message).toBe('No key __proto__.');

    const items = (await call('GET', '/_emulator/activity?type=control&limit=10')).body.data.reverse();
    expect(items).toMatchObject([
      {
        method: 'POST',
        path: `/_emulator/applications/${app.id}/keys`,
        status: 201,
        application_ids: [app.id],
      },
      { method: 'POST', path: '/_emulator/reset', status: 403, application_ids: [] },
      { method: 'POST', path: '/_emulator/clock/advance', status: 400, application_ids: [] },
      { method: 'DELETE', path: '/_emulator/keys/__proto__', status: 404, application_ids: [] },
    ]);
    expect(items.map((item: { request_id: string }) => item.request_id)).toEqual(
      [created, refused, invalid, unknownId].map((answer) => answer.headers.get('x-request-id')),
    );
  });
});

import { describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator } from '../_testing/test-emulator';

describe('DELETE /_emulator/keys/{id}', () => {
  test('a revoked key gets 401 invalid_api_key; the application’s other keys keep working', async () => {
    const { call, emulator } = testEmulator();
    const { app, key } = await createAppWithKey(emulator, 'sandbox');
    const other = await emulator.control.createKey(app.id, { scopes: ['system.status.read'] });
    expect((await call('GET', '/v1/status', { key })).status).toBe(200);
    const keyId = (await emulator.control.usage(app.id)).keys.find(
      (entry) => key.startsWith(entry.prefix) && entry.key_id !== other.id,
    )!.key_id;
    const revoked = await call('DELETE', `/_emulator/keys/${keyId}`);
    expect(revoked.status).toBe(204);
    const refused = await call('GET', '/v1/status', { key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    expect((await call('GET', '/v1/status', { key: other.key })).status).toBe(200);
    expect((await emulator.control.usage(app.id)).keys.map((entry) => entry.key_id)).toEqual([other.id]);
  });

  test('an unknown or malformed key id is a 404; revoking twice is a 404', async () => {
    const { call, emulator } = testEmulator();
    const { app } = await createAppWithKey(emulator, 'sandbox');
    const keyId = (await emulator.control.usage(app.id)).keys[0]!.key_id;
    expect((await call('DELETE', `/_emulator/keys/${keyId}`)).status).toBe(204);
    const again = await call('DELETE', `/_emulator/keys/${keyId}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'not_found', details: { key_id: keyId } });
    expect((await call('DELETE', '/_emulator/keys/__proto__')).status).toBe(404);
  });

  test('revocation survives a restart from the data dir', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-revoke-'));
    try {
      const first = testEmulator({ dataDir });
      const { app, key } = await createAppWithKey(first.emulator, 'sandbox');
      await first.emulator.control.revokeKey((await first.emulator.control.usage(app.id)).keys[0]!.key_id);
      await first.emulator.close();
      const second = testEmulator({ dataDir });
      expect((await second.call('GET', '/v1/status', { key })).status).toBe(401);
      await second.emulator.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

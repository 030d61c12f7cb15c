import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_APPLICATION_ID, testEmulator } from '../_testing/test-emulator';
import { APP, setup } from '../_testing/webhook-harness';
import { loadDirectory } from '../store/_load-directory';
import { endpoint as storedEndpoint } from '../store/_record-shapes';
import { parseSeed, SeedError } from '../store/parse-seed';

// An endpoint's description (issue 24): `parley listen` says what its endpoint forwards to, and the
// console shows it under the URL. Input from outside: bounded, and refused with a control
// character rather than stripped, so what is shown is exactly what was sent.

const URL = 'http://127.0.0.1:9/hooks';
const EVENTS = ['webhook.test'];
// 200 characters, one outside the BMP (two UTF-16 units): the limit counts characters.
const AT_LIMIT = `${'→'.repeat(199)}😀`;

type Control = ReturnType<typeof testEmulator>['emulator']['control'];

/** One endpoint as `GET /_emulator/endpoints` lists it. */
async function listed(control: Control, id: string) {
  return (await control.listEndpoints({ limit: 100 })).data.find((endpoint) => endpoint.id === id);
}

const refusal = (reason: string) => ({
  code: 'validation_error',
  details: { field: 'description', reason },
});

describe('the description input rule', () => {
  test('200 characters are kept exactly; 201 are refused too_long, and nothing is created', async () => {
    const { service } = setup();
    expect(AT_LIMIT.length).toBe(201);
    const created = await service.createEndpoint(APP, { url: URL, events: EVENTS, description: AT_LIMIT });
    expect(created.description).toBe(AT_LIMIT);
    expect(service.getEndpoint(created.id).description).toBe(AT_LIMIT);
    await expect(
      service.createEndpoint(APP, { url: URL, events: EVENTS, description: `${AT_LIMIT}x` }),
    ).rejects.toMatchObject(refusal('too_long'));
    expect(service.listEndpoints(APP).map((endpoint) => endpoint.id)).toEqual([created.id]);
  });

  test.each([
    ['a line feed', 'parley listen\n→ forged'],
    ['a carriage return', 'a\rb'],
    ['a tab', 'a\tb'],
    ['an escape', 'a\u001b[2Jb'],
    ['a NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control (NEL)', 'a\u0085b'],
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    ['a right-to-left override', 'a\u202eb'],
    ['a first-strong isolate', 'a\u2068b'],
    ['an Arabic letter mark', 'a\u061cb'],
  ])('%s is refused control_character, on create and on update', async (_name, description) => {
    const { service } = setup();
    await expect(
      service.createEndpoint(APP, { url: URL, events: EVENTS, description }),
    ).rejects.toMatchObject(refusal('control_character'));
    const created = await service.createEndpoint(APP, { url: URL, events: EVENTS, description: 'kept' });
    expect(() => service.updateEndpoint(created.id, { description })).toThrow(
      expect.objectContaining(refusal('control_character')),
    );
    expect(service.getEndpoint(created.id).description).toBe('kept');
  });

  test('an empty string and a non-string are refused; null or absent means none, with no field shown', async () => {
    const { service } = setup();
    await expect(
      service.createEndpoint(APP, { url: URL, events: EVENTS, description: '' }),
    ).rejects.toMatchObject(refusal('empty'));
    await expect(
      service.createEndpoint(APP, { url: URL, events: EVENTS, description: 7 }),
    ).rejects.toMatchObject(refusal('not_a_string'));
    const none = await service.createEndpoint(APP, { url: URL, events: EVENTS, description: null });
    const absent = await service.createEndpoint(APP, { url: URL, events: EVENTS });
    for (const { id } of [none, absent]) expect(service.getEndpoint(id)).not.toHaveProperty('description');
    // Plain text that looks like markup or carries accents is a description like any other.
    const shown = await service.createEndpoint(APP, {
      url: URL,
      events: EVENTS,
      description: '<b>café</b> & "quotes"',
    });
    expect(shown.description).toBe('<b>café</b> & "quotes"');
  });

  test('PATCH sets it, keeps it when absent, removes it with null, refuses 201 characters', async () => {
    const { service, changes } = setup();
    const created = await service.createEndpoint(APP, { url: URL, events: EVENTS });
    expect(service.updateEndpoint(created.id, { description: AT_LIMIT }).description).toBe(AT_LIMIT);
    expect(service.updateEndpoint(created.id, { active: false }).description).toBe(AT_LIMIT);
    expect(() => service.updateEndpoint(created.id, { description: `x${AT_LIMIT}` })).toThrow(
      expect.objectContaining(refusal('too_long')),
    );
    expect(service.getEndpoint(created.id).description).toBe(AT_LIMIT);
    expect(service.updateEndpoint(created.id, { description: null })).not.toHaveProperty('description');
    expect(changes()).toBe(4);
  });

  test('a stored endpoint from before descriptions is read; one with a non-string description is not', () => {
    const record = {
      id: 'e',
      application_id: 'a',
      url: URL,
      events: EVENTS,
      active: true,
      created_at: '2026-11-01T09:00:00.000Z',
      secret: 'whsec_0123456789abcdefghijABCDEFGHIJ01',
      previous_secret: null,
    };
    expect(storedEndpoint(record)).toBeUndefined();
    expect(
      storedEndpoint({ ...record, description: 'parley listen → http://127.0.0.1:3000/' }),
    ).toBeUndefined();
    expect(storedEndpoint({ ...record, description: 5 })).toBe('.description: expected a string');
  });
});

describe('a description in the data dir and in bundles', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('on disk once answered (create and PATCH), and back after a restart beside an endpoint without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-endpoint-description-'));
    dirs.push(dir);
    const first = testEmulator({ dataDir: dir });
    const described = await first.emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: URL,
      events: ['webhook.test'],
      description: 'parley listen → http://127.0.0.1:3000/webhooks',
    });
    const plain = await first.emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: URL,
      events: ['webhook.test'],
    });
    const onDisk = () => loadDirectory(dir).persisted!.state.webhooks.endpoints;
    expect(onDisk()[described.id]?.description).toBe('parley listen → http://127.0.0.1:3000/webhooks');
    await first.emulator.control.updateEndpoint(plain.id, { description: AT_LIMIT });
    expect(onDisk()[plain.id]?.description).toBe(AT_LIMIT);
    await first.emulator.control.updateEndpoint(described.id, { description: null });
    expect(onDisk()[described.id]).not.toHaveProperty('description');
    await first.emulator.close();

    const again = testEmulator({ dataDir: dir });
    await again.emulator.ready;
    expect(again.emulator.restored).toBe(true);
    expect(await listed(again.emulator.control, plain.id)).toMatchObject({ description: AT_LIMIT });
    expect(await listed(again.emulator.control, described.id)).not.toHaveProperty('description');
    await again.emulator.close();
  });

  test('export/import carries it; a bundle whose description breaks the rule is refused naming the place', async () => {
    const original = testEmulator();
    const created = await original.emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: URL,
      events: ['webhook.test'],
      description: AT_LIMIT,
    });
    const bundle = await original.emulator.control.export();
    const copy = testEmulator();
    await copy.emulator.control.import(bundle);
    expect(await listed(copy.emulator.control, created.id)).toMatchObject({ description: AT_LIMIT });

    const at = bundle.endpoints.findIndex((endpoint) => endpoint.id === created.id);
    for (const [description, reason] of [
      ['a\u001b[2Jb', 'control_character'],
      [`${AT_LIMIT}x`, 'too_long'],
      [7, 'not_a_string'],
    ] as const) {
      const broken = structuredClone(bundle);
      (broken.endpoints[at] as { description?: unknown }).description = description;
      const error = await copy.emulator.control.import(broken).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'validation_error' });
      expect((error as Error).message).toContain(
        `endpoints[${at}].description: expected an endpoint description (${reason})`,
      );
    }
    expect(await listed(copy.emulator.control, created.id)).toMatchObject({ description: AT_LIMIT });
  });

  test('a seed file may give it; one breaking the rule stops the seed naming the place', async () => {
    const seed = (description: unknown) => ({
      workspaces: [
        {
          name: 'Seeded workspace',
          applications: [
            {
              name: 'Seeded',
              environment: 'sandbox',
              endpoints: [{ url: URL, events: ['webhook.test'], description }],
            },
          ],
        },
      ],
    });
    const seeded = testEmulator({ seed: parseSeed(seed(AT_LIMIT)) });
    await seeded.emulator.ready;
    const all = (await seeded.emulator.control.listEndpoints({ limit: 100 })).data;
    expect(all.map((endpoint) => endpoint.description)).toContain(AT_LIMIT);
    for (const description of [`${AT_LIMIT}x`, 'a\nb', '', 7]) {
      expect(() => parseSeed(seed(description))).toThrow(SeedError);
      expect(() => parseSeed(seed(description))).toThrow(
        'seed workspaces[0].applications[0].endpoints[0].description: description must',
      );
    }
  });
});

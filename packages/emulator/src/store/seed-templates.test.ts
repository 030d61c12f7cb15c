import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { parseSeed, SeedError } from './parse-seed';
import type { SeedFile, SeedTemplate } from './seed-types';

const LIVE_KEY = 'prl_live_SeededTemplatesKey00000000000001';
const CONNECTION = '5d1e0f3a-2b4c-4d6e-8f0a-1b2c3d4e5f60';

/** 150 templates; every third takes two variables (the 150th among them). */
const TEMPLATES: SeedTemplate[] = Array.from({ length: 150 }, (_, index) => {
  const number = index + 1;
  return number % 3 === 0
    ? {
        name: `template_${number}`,
        language: 'en',
        category: 'MARKETING',
        body: `Hi {{1}}, offer {{2}} (${number}).`,
      }
    : { name: `template_${number}`, language: 'fr', body: `Modèle ${number}.` };
});

function seed(templates: unknown[] = TEMPLATES): SeedFile {
  return {
    workspaces: [
      {
        name: 'Acme',
        applications: [
          {
            name: 'Shop (live)',
            environment: 'live',
            keys: [{ key: LIVE_KEY }],
            connections: [
              { id: CONNECTION, phone_number: '+14155550100', templates: templates as SeedTemplate[] },
            ],
          },
        ],
      },
    ],
  };
}

// Emulators with a data dir are closed inside their test: the directory must outlive them.
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('seeded connection templates', () => {
  test('are listed after the two every connection carries, 100 a page with the list envelope', async () => {
    const { call } = testEmulator({ seed: seed() });
    const path = `/v1/connections/${CONNECTION}/templates`;
    const first = await call('GET', `${path}?limit=100`, { key: LIVE_KEY });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: expect.any(String) });
    expect(first.body.data).toHaveLength(100);
    expect(first.body.data.slice(0, 3).map((template: { name: string }) => template.name)).toEqual([
      'hello_world',
      'order_confirmation',
      'template_1',
    ]);
    const second = await call('GET', `${path}?limit=100&cursor=${first.body.next_cursor}`, { key: LIVE_KEY });
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data).toHaveLength(52);
    expect(second.body.data.at(-1)).toEqual({
      object: 'template',
      connection_id: CONNECTION,
      name: 'template_150',
      language: 'en',
      category: 'MARKETING',
      variable_count: 2,
      body: 'Hi {{1}}, offer {{2}} (150).',
    });
    expect((await call('GET', path, { key: LIVE_KEY })).body.data).toHaveLength(20);
  });

  test('can be sent, with their own variable count, and stay off the connection JSON', async () => {
    const { call, send } = testEmulator({ seed: seed() });
    const template = { name: 'template_150', language: 'en', variables: ['Ada', 'A-42'] };
    const body = { type: 'template', connection_id: CONNECTION, to: '+33612345678', template };
    const sent = await send(body, { key: LIVE_KEY });
    expect(sent.status).toBe(202);
    expect(sent.body.template).toEqual({ name: 'template_150', language: 'en' });
    const wrong = await send({ ...body, template: { ...template, variables: ['Ada'] } }, { key: LIVE_KEY });
    expect(wrong.body.error.details).toMatchObject({ field: 'template.variables', reason: 'wrong_count' });
    const connections = await call('GET', '/v1/connections', { key: LIVE_KEY });
    expect(connections.body.data[0]).not.toHaveProperty('templates');
    expect(Object.keys(connections.body.data[0]).sort()).toEqual([
      'created_at',
      'id',
      'livemode',
      'name',
      'object',
      'phone_number',
      'quality_rating',
      'status',
      'waba_id',
    ]);
  });

  test('survive a reset and a restart from the data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-seed-templates-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const path = `/v1/connections/${CONNECTION}/templates?limit=100`;
    const first = testEmulator({ seed: seed(), dataDir });
    await first.call('POST', '/_emulator/reset', { body: {} });
    const cursor = (await first.call('GET', path, { key: LIVE_KEY })).body.next_cursor;
    expect((await first.call('GET', `${path}&cursor=${cursor}`, { key: LIVE_KEY })).body.data).toHaveLength(
      52,
    );
    await first.emulator.close();
    // Without the seed: the templates come back from the data dir with their connection.
    const again = testEmulator({ dataDir });
    expect((await again.call('GET', `${path}&cursor=${cursor}`, { key: LIVE_KEY })).body.data).toHaveLength(
      52,
    );
    await again.emulator.close();
  });

  const at = 'seed workspaces[0].applications[0].connections[0].templates';
  test.each([
    [[{ name: 'Bad Name', language: 'en', body: 'x' }], `${at}[0].name: must be 1 to 512 lowercase`],
    [[{ name: 'a', language: 'english', body: 'x' }], `${at}[0].language: must be a language code`],
    [[{ name: 'a', language: 'en', body: 'x', category: 'PROMO' }], `${at}[0].category: must be one of`],
    [[{ name: 'a', language: 'en', body: '' }], `${at}[0].body: must be a string of 1 to 1024 characters`],
    [[{ name: 'a', language: 'en', body: 'Hi {{2}}' }], `${at}[0].body: has {{2}} but no {{1}}`],
    [[{ name: 'a', language: 'en', body: 'Hi {{0}}' }], `${at}[0].body: has {{0}}`],
    [
      [{ name: 'a', language: 'en', body: 'Hi {{1}}', variable_count: 2 }],
      `${at}[0].variable_count: must be 1, the number of placeholders in body`,
    ],
    [[{ name: 'a', language: 'en', body: 'x', colour: 'red' }], `${at}[0].colour: unknown field`],
    [
      [{ name: 'hello_world', language: 'en', body: 'x' }],
      `${at}[0].name: hello_world (en) is already on this connection`,
    ],
    [
      [
        { name: 'a', language: 'en', body: 'x' },
        { name: 'a', language: 'en', body: 'y' },
      ],
      `${at}[1].name: a (en) is already on this connection`,
    ],
    [{ name: 'a' }, `${at}: must be an array`],
  ])('an invalid template is refused at its place: %j', (templates, message) => {
    const input = seed(templates as unknown[]);
    expect(() => parseSeed(input)).toThrow(SeedError);
    expect(() => parseSeed(input)).toThrow(message);
  });

  test('the same name in another language is another template; variable_count may be given', () => {
    const parsed = parseSeed(
      seed([
        { name: 'hello_world', language: 'fr', body: 'Bonjour {{1}}', variable_count: 1 },
        { name: 'hello_world', language: 'pt_BR', body: 'Olá' },
      ]),
    );
    expect(parsed.workspaces?.[0]?.applications?.[0]?.connections?.[0]?.templates).toEqual([
      { name: 'hello_world', language: 'fr', category: 'UTILITY', body: 'Bonjour {{1}}', variable_count: 1 },
      { name: 'hello_world', language: 'pt_BR', category: 'UTILITY', body: 'Olá', variable_count: 0 },
    ]);
  });
});

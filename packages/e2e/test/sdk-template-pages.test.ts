import { createEmulator, type Emulator } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONNECTION_ID, LIVE_KEY, SEEDED_TEMPLATES, TEMPLATE_COUNT, templateSeed } from './_template-seed';

// The SDK against the real emulator in process (frozen clock), with a seeded live connection
// holding more templates than one page can.
let emulator: Emulator;

beforeEach(() => {
  emulator = createEmulator({ clock: 'frozen', seed: templateSeed });
});

afterEach(async () => {
  await emulator.close();
});

function client(): Parley {
  return new Parley({
    apiKey: LIVE_KEY,
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
}

describe('connections.listTemplates against the emulator', () => {
  it('pages with limit and cursor in the list envelope', async () => {
    const first = await client().connections.listTemplates(CONNECTION_ID, { limit: 100 });
    expect(first).toMatchObject({ object: 'list', has_more: true, next_cursor: expect.any(String) });
    expect(first.data).toHaveLength(100);
    const second = await client().connections.listTemplates(CONNECTION_ID, {
      limit: 100,
      cursor: first.next_cursor!,
    });
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.data).toHaveLength(TEMPLATE_COUNT + 2 - 100);
  });

  it(`iterates every template across pages, the ${TEMPLATE_COUNT} seeded ones after the two every connection has`, async () => {
    const names: string[] = [];
    for await (const template of client().connections.listTemplates(CONNECTION_ID, { limit: 100 })) {
      expect(template.connection_id).toBe(CONNECTION_ID);
      names.push(template.name);
    }
    expect(names).toEqual([
      'hello_world',
      'order_confirmation',
      ...SEEDED_TEMPLATES.map((template) => template.name),
    ]);
  });

  it(`sends with the ${TEMPLATE_COUNT}th template found on the last page`, async () => {
    const parley = client();
    let last: { name: string; language: string; variable_count: number } | undefined;
    for await (const template of parley.connections.listTemplates(CONNECTION_ID, { limit: 100 }))
      last = template;
    expect(last).toMatchObject({ name: `template_${TEMPLATE_COUNT}`, language: 'en', variable_count: 1 });
    const message = await parley.messages.send({
      type: 'template',
      connection_id: CONNECTION_ID,
      to: '+33612345678',
      template: { name: last!.name, language: last!.language, variables: ['Ada'] },
    });
    expect(message).toMatchObject({
      status: 'queued',
      livemode: true,
      template: { name: `template_${TEMPLATE_COUNT}`, language: 'en' },
    });
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryConfigHome, testContext } from '../../_test/test-context';
import { parseHeaderFile } from './_header-file';
import { curlLine, sign } from './sign';
import { verify } from './verify';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const OTHER_SECRET = 'whsec_zyxwvutsrqponmlkjihgfedcbaZYXWVU';
const EVENT = {
  api_version: '2026-10-14',
  created_at: '2026-10-14T09:30:00Z',
  data: { message: 'This is a test event from Parley.' },
  id: 'evt_0123456789abcdef0123456789abcdef',
  livemode: false,
  type: 'webhook.test',
};

let dir: { dir: string; cleanup: () => Promise<void> };
let bodyPath: string;
beforeEach(async () => {
  dir = await temporaryConfigHome();
  bodyPath = join(dir.dir, 'body.json');
  await writeFile(bodyPath, canonicalJson(EVENT));
});
afterEach(() => dir.cleanup());

async function signedHeaders(options: { timestamp?: number; secret?: string[] } = {}) {
  const delivery = await sign(
    {
      body: bodyPath,
      secret: options.secret ?? [SECRET],
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    },
    testContext(),
  );
  const headersPath = join(dir.dir, 'headers.json');
  await writeFile(headersPath, JSON.stringify(delivery.headers));
  return { delivery, headersPath };
}

describe('webhooks sign', () => {
  it('signs the body as given, with the id from the body and the timestamp given', async () => {
    const { delivery } = await signedHeaders({ timestamp: 1_800_000_000 });
    expect(delivery.body).toBe(canonicalJson(EVENT));
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'parley-event-id': EVENT.id,
      'parley-timestamp': '1800000000',
    });
    expect(delivery.headers['parley-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('adds one v1= per secret, in the order given (rotation: new first)', async () => {
    const { delivery } = await signedHeaders({ secret: [SECRET, OTHER_SECRET] });
    expect(delivery.headers['parley-signature']).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  });

  it('falls back to PARLEY_WEBHOOK_SECRET, and without any secret is a usage error', async () => {
    const delivery = await sign({ body: bodyPath }, testContext({ env: { PARLEY_WEBHOOK_SECRET: SECRET } }));
    expect(delivery.headers['parley-signature']).toMatch(/^v1=/);
    await expect(sign({ body: bodyPath }, testContext())).rejects.toMatchObject({ code: 2 });
  });

  it('needs --id when the body has no id, and refuses a non-numeric timestamp', async () => {
    await writeFile(bodyPath, 'not json');
    await expect(sign({ body: bodyPath, secret: [SECRET] }, testContext())).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('--id'),
    });
    await expect(
      sign({ body: bodyPath, secret: [SECRET], id: 'evt_1', timestamp: '12a' }, testContext()),
    ).rejects.toMatchObject({ code: 2 });
  });

  it('renders a curl line that quotes the body for the shell', async () => {
    const line = curlLine({
      url: 'http://127.0.0.1:3000/hooks',
      headers: { 'parley-event-id': 'evt_1' },
      body: `{"a":"it's"}`,
    });
    expect(line).toBe(
      `curl -sS -X POST 'http://127.0.0.1:3000/hooks' -H 'parley-event-id: evt_1' --data-binary '{"a":"it'\\''s"}'`,
    );
  });
});

describe('webhooks verify', () => {
  it('accepts a delivery signed with the secret and returns its event', async () => {
    const { headersPath } = await signedHeaders();
    const result = await verify({ secret: [SECRET], headers: headersPath, body: bodyPath }, testContext());
    expect(result).toEqual({ valid: true, event: EVENT });
  });

  it('accepts when any of several secrets matches', async () => {
    const { headersPath } = await signedHeaders({ secret: [OTHER_SECRET] });
    await expect(
      verify({ secret: [SECRET, OTHER_SECRET], headers: headersPath, body: bodyPath }, testContext()),
    ).resolves.toMatchObject({ valid: true });
  });

  it('says signature_mismatch when the body was changed after signing (exit 1)', async () => {
    const { headersPath } = await signedHeaders();
    await writeFile(bodyPath, JSON.stringify(EVENT, null, 2));
    const failure = await verify(
      { secret: [SECRET], headers: headersPath, body: bodyPath },
      testContext(),
    ).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.message).toMatch(/^invalid delivery: signature_mismatch: /);
    expect(failure.body.error.code).toBe('signature_mismatch');
  });

  it('says timestamp_out_of_range for an old capture, and checks only the signature with --tolerance Infinity', async () => {
    const { headersPath } = await signedHeaders({ timestamp: 1_000_000_000 });
    await expect(
      verify({ secret: [SECRET], headers: headersPath, body: bodyPath }, testContext()),
    ).rejects.toMatchObject({ code: 1, message: expect.stringContaining('timestamp_out_of_range') });
    await expect(
      verify(
        { secret: [SECRET], headers: headersPath, body: bodyPath, tolerance: 'Infinity' },
        testContext(),
      ),
    ).resolves.toMatchObject({ valid: true });
  });

  it('names the missing header', async () => {
    const headersPath = join(dir.dir, 'headers.txt');
    await writeFile(headersPath, 'Content-Type: application/json\nParley-Timestamp: 1\n');
    await expect(
      verify({ secret: [SECRET], headers: headersPath, body: bodyPath }, testContext()),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/missing_header: .*parley-event-id.*parley-signature/),
    });
  });

  it('is a usage error (exit 2) when a file cannot be read', async () => {
    await expect(
      verify({ secret: [SECRET], headers: join(dir.dir, 'nope'), body: bodyPath }, testContext()),
    ).rejects.toMatchObject({ code: 2, message: expect.stringContaining('ENOENT') });
  });
});

describe('header files', () => {
  it('reads curl -v style lines, skipping the request line and > prefixes, joining repeats', () => {
    expect(
      parseHeaderFile(
        '> POST /webhooks HTTP/1.1\r\n> Host: 127.0.0.1\r\n> Parley-Signature: v1=aa\r\n> parley-signature: v1=bb\r\n',
      ),
    ).toEqual({ host: '127.0.0.1', 'parley-signature': ['v1=aa', 'v1=bb'] });
  });

  it('reads a JSON object with string or array values', () => {
    expect(parseHeaderFile('{"Parley-Timestamp": 123, "x": ["a", "b"]}')).toEqual({
      'Parley-Timestamp': '123',
      x: ['a', 'b'],
    });
    expect(() => parseHeaderFile('{broken')).toThrow(/does not parse/);
  });
});

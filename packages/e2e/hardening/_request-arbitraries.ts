import { DEFAULT_APPLICATION_ID, DEFAULT_WORKSPACE_ID } from '@parley/emulator';
import fc from 'fast-check';

/** A valid sandbox connection and key of a fresh emulator (DESIGN §2 fixtures). */
export const ACTIVE_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

/** Ids that exist in a fresh emulator, so requests get past the lookup to validation. */
const knownId = fc.constantFrom(ACTIVE_CONNECTION, DEFAULT_APPLICATION_ID, DEFAULT_WORKSPACE_ID);

/** Ids of every shape a hostile caller might put in a URL or a body. */
export const hostileId = fc.oneof(
  { arbitrary: knownId, weight: 10 },
  fc.uuid(),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '__defineGetter__',
    '..',
    '%2e%2e',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '%ZZ',
    '%F0%9F%98%80',
    'é',
    '💥',
    ACTIVE_CONNECTION,
    ACTIVE_CONNECTION.toUpperCase(),
    `${ACTIVE_CONNECTION}%00`,
    'a'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);

/** Every route with the method it answers (the fuzzer also tries the others). */
const ROUTES: [string, string][] = [
  ['GET', '/v1/status'],
  ['GET', '/v1/connections'],
  ['GET', '/v1/connections/{id}/templates'],
  ['POST', '/v1/messages'],
  ['GET', '/v1/messages/{id}'],
  ['POST', '/v1/sandbox/events'],
  ['GET', '/v1/{id}'],
  ['GET', '/_emulator/health'],
  ['POST', '/_emulator/reset'],
  ['GET', '/_emulator/clock'],
  ['POST', '/_emulator/clock/advance'],
  ['POST', '/_emulator/workspaces'],
  ['POST', '/_emulator/applications'],
  ['POST', '/_emulator/applications/{id}/keys'],
  ['POST', '/_emulator/applications/{id}/endpoints'],
  ['POST', '/_emulator/applications/{id}/connections'],
  ['GET', '/_emulator/endpoints'],
  ['PATCH', '/_emulator/endpoints/{id}'],
  ['DELETE', '/_emulator/endpoints/{id}'],
  ['POST', '/_emulator/endpoints/{id}/rotate-secret'],
  ['POST', '/_emulator/endpoints/{id}/test'],
  ['GET', '/_emulator/deliveries?endpoint_id={id}'],
  ['POST', '/_emulator/deliveries/{id}/replay'],
  ['GET', '/_emulator/usage?application_id={id}'],
  ['POST', '/_emulator/connections/{id}/disconnect'],
  ['POST', '/_emulator/connections/{id}/inbound'],
  ['GET', '/_emulator/messages?limit={id}&cursor={id}'],
  ['GET', '/_emulator/events?application_id={id}'],
  ['GET', '/_emulator/{id}'],
  ['GET', '/{id}'],
];

const anyMethod = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD');

/** A method and a path of every route, with a hostile id wherever one goes; mostly the route's own method. */
export const hostileRequestLine = fc
  .tuple(fc.constantFrom(...ROUTES), hostileId, hostileId, fc.option(anyMethod, { freq: 3, nil: undefined }))
  .map(([[ownMethod, template], first, second, otherMethod]) => ({
    method: otherMethod ?? ownMethod,
    path: template.replace('{id}', first).replace('{id}', second),
  }));

const validSend = fc.record({
  type: fc.constantFrom('template', 'text', 'image', ''),
  connection_id: fc.oneof(fc.constant(ACTIVE_CONNECTION), hostileId),
  to: fc.oneof(fc.constant('+33612345678'), fc.constant('+33600000000'), fc.string({ maxLength: 20 })),
  text: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('x'.repeat(4097)), fc.integer()),
  template: fc.oneof(
    fc.constant({ name: 'hello_world', language: 'en', variables: [] }),
    fc.record({
      name: fc.string(),
      language: fc.string(),
      variables: fc.array(fc.jsonValue(), { maxLength: 4 }),
    }),
  ),
  client_reference: fc.oneof(fc.string({ maxLength: 130 }), fc.constant('😀'.repeat(129))),
});

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Body texts: valid-looking sends, wrong types, huge strings, deep nesting, duplicate keys, prototype keys. */
export const hostileBody = fc.oneof(
  validSend.map((body) => JSON.stringify(body)),
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '',
    'null',
    '{',
    '[]',
    '"',
    '{"__proto__":{"active":false,"events":["x"]}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"name":"a","name":{"__proto__":1}}',
    '{"ms":1e400}',
    '{"ms":-1}',
    '{"ms":"60000"}',
    `{"name":"${'n'.repeat(90_000)}"}`,
    deep(5_000),
    deep(65),
    deep(64),
    `{"a":${deep(10_000)}}`,
    '\u0000\ud800',
  ),
  fc.string({ maxLength: 200 }),
);

/** Raw bytes that are not valid UTF-8, inside otherwise valid JSON. */
export const invalidUtf8Body = fc
  .constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf0, 0x28, 0x8c, 0x28])
  .map((bytes) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]));

export const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    '',
  ),
);

export const authorization = (key: string) =>
  fc.constantFrom(
    `Bearer ${key}`,
    `Bearer ${key}`,
    `bearer ${key}`,
    'Bearer prl_sandbox_',
    'Bearer prl_live_00000000000000000000000000000000',
    'Basic abc',
    `Bearer ${key} extra`,
    '',
    `Bearer ${'a'.repeat(3000)}`,
  );

export const idempotencyKey = fc.oneof(
  fc.uuid(),
  fc.constantFrom('', ' ', 'a'.repeat(256), 'é', 'same-key', 'same-key', '\t'),
);

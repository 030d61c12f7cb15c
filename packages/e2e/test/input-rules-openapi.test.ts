import { readFileSync } from 'node:fs';
import { MAX_CLIENT_REFERENCE_LENGTH, MAX_TEXT_LENGTH, PHONE_NUMBER_PATTERN } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const openapi = parse(readFileSync(new URL('../../../docs/openapi.yaml', import.meta.url), 'utf8'));

/** Every schema node of the description, wherever it sits. */
function* nodes(value: unknown, path = '#'): Generator<[string, Record<string, unknown>]> {
  if (typeof value !== 'object' || value === null) return;
  yield [path, value as Record<string, unknown>];
  for (const [key, child] of Object.entries(value)) yield* nodes(child, `${path}/${key}`);
}

describe("docs/openapi.yaml states the SDK's input rules", () => {
  test('every phone pattern is PHONE_NUMBER_PATTERN', () => {
    const patterns = [...nodes(openapi)]
      .filter(([, node]) => typeof node.pattern === 'string' && (node.pattern as string).startsWith('^\\+'))
      .map(([, node]) => node.pattern);
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(pattern).toBe(PHONE_NUMBER_PATTERN.source);
  });

  test('text and client_reference maxLength are the SDK limits', () => {
    const lengths = new Map<string, unknown[]>();
    for (const [path, node] of nodes(openapi)) {
      for (const field of ['text', 'client_reference']) {
        const property = (node.properties as Record<string, Record<string, unknown>> | undefined)?.[field];
        if (property?.maxLength !== undefined) lengths.set(`${path}.${field}`, [field, property.maxLength]);
      }
    }
    expect(lengths.size).toBeGreaterThan(0);
    for (const [field, maxLength] of lengths.values()) {
      expect(maxLength).toBe(field === 'text' ? MAX_TEXT_LENGTH : MAX_CLIENT_REFERENCE_LENGTH);
    }
  });
});

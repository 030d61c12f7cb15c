import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './_json-depth';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  test('counts arrays and objects, at the limit and one past it', () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`, 64)).toBe(false);
    expect(nestsDeeperThan(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`, 64)).toBe(true);
    expect(nestsDeeperThan('[{"a":[{}]}]', 3)).toBe(true);
    expect(nestsDeeperThan('[{"a":[{}]}]', 4)).toBe(false);
  });

  test('brackets inside strings, escaped quotes included, do not count', () => {
    expect(nestsDeeperThan(`["${'['.repeat(100)}"]`, 1)).toBe(false);
    expect(nestsDeeperThan(`["\\"${'{'.repeat(100)}"]`, 1)).toBe(false);
    expect(nestsDeeperThan(`["\\\\", [[]]]`, 2)).toBe(true);
  });

  test('arrays and objects count together: 65 levels alternating, no more than 33 of either kind', () => {
    const alternating = (pairs: number) => `${'[{"a":'.repeat(pairs)}[]${'}]'.repeat(pairs)}`;
    expect(nestsDeeperThan(alternating(32), 64)).toBe(true);
    expect(nestsDeeperThan(alternating(31), 64)).toBe(false);
    expect(nestsDeeperThan(alternating(31), 62)).toBe(true);
  });

  test('siblings do not add up: depth is nesting, not a count', () => {
    expect(nestsDeeperThan(`[${Array(1000).fill('[]').join(',')}]`, 2)).toBe(false);
  });
});

describe('a deeply nested body is a 400, never a 500', () => {
  const deep = nested(5_000);
  test.each([
    ['POST', '/v1/messages'],
    ['POST', '/v1/sandbox/events'],
    ['POST', '/_emulator/workspaces'],
    ['POST', '/_emulator/clock/advance'],
  ])('%s %s', async (method, path) => {
    const { call } = testEmulator();
    const answer = await call(method, path, {
      raw: deep,
      headers: { 'content-type': 'application/json' },
      idempotencyKey: 'deep-1',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'validation_error',
      details: { reason: 'too_deep', max_depth: MAX_JSON_DEPTH },
    });
  });

  test('64 levels pass the depth check and meet the usual validation', async () => {
    const { send } = testEmulator();
    const atLimit = await send(JSON.parse(`${'{"a":'.repeat(63)}1${'}'.repeat(63)}`));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.error.details.reason).not.toBe('too_deep');
  });
});

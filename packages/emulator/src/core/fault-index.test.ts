import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type FaultMatch, type FaultTarget, faultMatches } from '../domain/faults';
import { FaultIndex } from './_fault-index';

type TestFault = FaultMatch & { remaining: number; name: string };

const fault = (name: string, match: Partial<FaultMatch>, remaining = 1): TestFault => ({
  name,
  method: null,
  path: null,
  key_id: null,
  key_prefix: null,
  remaining,
  ...match,
});

const request = (method: string, path: string, key?: string): FaultTarget => ({
  method,
  path,
  key,
  keyId: undefined,
});

function indexOf(...faults: TestFault[]): FaultIndex<TestFault> {
  const index = new FaultIndex<TestFault>();
  for (const each of faults) index.add(each);
  return index;
}

describe('FaultIndex', () => {
  test('the earliest-created match wins across exact, any-method, wildcard and pathless faults', () => {
    const faults = [
      fault('wildcard', { path: '/v1/messages/*' }),
      fault('exact', { method: 'GET', path: '/v1/messages/abc' }),
      fault('any method', { path: '/v1/messages/abc' }),
      fault('pathless', { method: 'GET' }),
    ];
    expect(indexOf(...faults).first(request('GET', '/v1/messages/abc'))?.name).toBe('wildcard');
    expect(indexOf(...faults.slice(1)).first(request('GET', '/v1/messages/abc'))?.name).toBe('exact');
    expect(indexOf(...faults.slice(2)).first(request('get', '/v1/messages/abc'))?.name).toBe('any method');
    expect(indexOf(faults[3]!, faults[2]!).first(request('GET', '/v1/messages/abc'))?.name).toBe('pathless');
  });

  test('a trailing slash on either side still matches; another method or path does not', () => {
    const index = indexOf(fault('status', { method: 'GET', path: '/v1/status/' }));
    expect(index.first(request('GET', '/v1/status'))?.name).toBe('status');
    expect(indexOf(fault('status', { path: '/v1/status' })).first(request('GET', '/v1/status/'))?.name).toBe(
      'status',
    );
    expect(index.first(request('POST', '/v1/status'))).toBeUndefined();
    expect(index.first(request('GET', '/v1/statuses'))).toBeUndefined();
    expect(index.first(request('GET', '/v1//status'))).toBeUndefined();
  });

  test('a fault with no uses left, or removed, is passed over for the next one', () => {
    const first = fault('first', { path: '/v1/status' }, 0);
    const second = fault('second', { path: '/v1/status' });
    const third = fault('third', { path: '/v1/*' });
    const index = indexOf(first, second, third);
    expect(index.first(request('GET', '/v1/status'))?.name).toBe('second');
    index.remove(second);
    expect(index.first(request('GET', '/v1/status'))?.name).toBe('third');
    index.remove(third);
    expect(index.first(request('GET', '/v1/status'))).toBeUndefined();
    index.clear();
    second.remaining = 1;
    expect(index.first(request('GET', '/v1/status'))).toBeUndefined();
  });

  test('a key criterion is still checked for a fault found by its path', () => {
    const index = indexOf(fault('keyed', { path: '/v1/status', key_prefix: 'prl_sandbox_A' }));
    expect(index.first(request('GET', '/v1/status', 'prl_sandbox_B1'))).toBeUndefined();
    expect(index.first(request('GET', '/v1/status', 'prl_sandbox_A1'))?.name).toBe('keyed');
  });

  test('always picks what a scan of every fault in creation order picks', () => {
    const segment = fc.constantFrom('v1', 'messages', 'status', 'abc', '*', 'a*b');
    const path = fc
      .array(segment, { minLength: 0, maxLength: 3 })
      .chain((rest) => fc.constantFrom(`/v1/${rest.join('/')}`, `/v1/${rest.join('/')}/`));
    const method = fc.constantFrom('GET', 'POST', 'DELETE');
    const faultArbitrary = fc.record({
      method: fc.option(method, { nil: null }),
      path: fc.option(path, { nil: null }),
      key_prefix: fc.option(fc.constantFrom('prl_a', 'prl_b'), { nil: null }),
      remaining: fc.integer({ min: 0, max: 2 }),
    });
    const requestArbitrary = fc.record({
      method: fc.constantFrom('GET', 'post', 'DELETE'),
      path: path.map((each) => each.replaceAll('*', 'x')),
      key: fc.constantFrom('prl_a1', 'prl_b1', undefined),
    });
    fc.assert(
      fc.property(fc.array(faultArbitrary, { maxLength: 12 }), requestArbitrary, (specs, target) => {
        const faults = specs.map((spec, order) =>
          fault(String(order), { ...spec, key_id: null }, spec.remaining),
        );
        const scanned = faults.find(
          (each) => each.remaining > 0 && faultMatches(each, { ...target, keyId: undefined }),
        );
        expect(indexOf(...faults).first({ ...target, keyId: undefined })?.name).toBe(scanned?.name);
      }),
      { numRuns: 2_000 },
    );
  });
});

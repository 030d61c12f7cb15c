import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { TRACESTATE_MAX_LENGTH, traceContextOf } from './_trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${SPAN_ID}-01`;

describe('traceContextOf: only a well-formed W3C trace context is recorded', () => {
  test('a version 00 traceparent and its tracestate are kept as sent', () => {
    expect(traceContextOf(VALID, 'rojo=00f067aa0ba902b7, congo=t61rcWkgMzE')).toEqual({
      traceparent: VALID,
      tracestate: 'rojo=00f067aa0ba902b7, congo=t61rcWkgMzE',
    });
    expect(traceContextOf(VALID, null)).toEqual({ traceparent: VALID, tracestate: null });
    expect(traceContextOf(null, 'rojo=1')).toEqual({ traceparent: null, tracestate: null });
  });

  test.each([
    ['upper-case hex', VALID.toUpperCase()],
    ['version ff', `ff-${TRACE_ID}-${SPAN_ID}-01`],
    ['a future version with more fields', `01-${TRACE_ID}-${SPAN_ID}-01-extra`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero span id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['one character short', VALID.slice(0, 54)],
    ['one character more', `${VALID}0`],
    ['a control character', `00-${TRACE_ID}-${SPAN_ID.slice(0, 15)}\u001b-01`],
    ['terminal escape', '\u001b[31mred\u001b[0m'],
  ])('%s is null, and so is its tracestate', (_name, header) => {
    expect(traceContextOf(header, 'rojo=1')).toEqual({ traceparent: null, tracestate: null });
  });

  test('tracestate: at most 512 characters and 32 members, each key=value', () => {
    const member = 'a=b';
    const atLimit = `k=${'v'.repeat(TRACESTATE_MAX_LENGTH - 2)}`;
    // A value is at most 256 characters: build 512 from two members.
    const twoMembers = `k=${'v'.repeat(254)},l=${'v'.repeat(TRACESTATE_MAX_LENGTH - 256 - 3)}`;
    expect(twoMembers).toHaveLength(TRACESTATE_MAX_LENGTH);
    expect(traceContextOf(VALID, twoMembers).tracestate).toBe(twoMembers);
    expect(traceContextOf(VALID, `${twoMembers}v`).tracestate).toBeNull();
    expect(traceContextOf(VALID, atLimit).tracestate).toBeNull(); // a 510-character value
    const members = (count: number) => Array.from({ length: count }, (_, index) => `k${index}=v`).join(',');
    expect(traceContextOf(VALID, members(32)).tracestate).toBe(members(32));
    expect(traceContextOf(VALID, members(33)).tracestate).toBeNull();
    expect(traceContextOf(VALID, `${member},,  ,vendor@sys=x`).tracestate).toBe(`${member},,  ,vendor@sys=x`);
    for (const bad of ['', ' ', 'novalue', 'Upper=1', 'a=b=c', 'a=b\tc', 'a=\u001b[2J', 'a=é']) {
      expect(traceContextOf(VALID, bad).tracestate, bad).toBeNull();
    }
  });
});

describe('the /v1 request activity item records the trace context', () => {
  test('valid, malformed and absent headers, on an answered call and a refused one', async () => {
    const { call } = testEmulator();
    const sent = await call('GET', '/v1/status', { headers: { traceparent: VALID, tracestate: 'rojo=1' } });
    const malformed = await call('GET', '/v1/status', {
      headers: { traceparent: `${VALID}0`, tracestate: 'rojo=1' },
    });
    const absent = await call('GET', '/v1/status');
    const refused = await call('GET', '/v1/status', { key: null, headers: { traceparent: VALID } });
    expect([sent.status, malformed.status, absent.status, refused.status]).toEqual([200, 200, 200, 401]);

    const items = (await call('GET', '/_emulator/activity?type=request&limit=4')).body.data.reverse();
    expect(
      items.map((item: { request_id: string; traceparent: string | null; tracestate: string | null }) => [
        item.request_id,
        item.traceparent,
        item.tracestate,
      ]),
    ).toEqual([
      [sent.headers.get('x-request-id'), VALID, 'rojo=1'],
      [malformed.headers.get('x-request-id'), null, null],
      [absent.headers.get('x-request-id'), null, null],
      [refused.headers.get('x-request-id'), VALID, null],
    ]);
  });
});

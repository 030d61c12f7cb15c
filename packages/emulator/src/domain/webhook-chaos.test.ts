import { describe, expect, it } from 'vitest';
import { refusalOf } from '../_testing/thrown-domain-error';
import { nextRandom } from './seeded-random';
import {
  CHAOS_KINDS,
  chaosHoldMs,
  chaosView,
  isForgedChaosKind,
  parseChaosInput,
  planChaos,
} from './webhook-chaos';

/** A seed whose first draw is exactly 0 (and whose next state is 0, so the second is seed 0's first). */
const SEED_DRAWING_ZERO = 2_463_401_483;

describe('parseChaosInput', () => {
  it('takes a rate or a next count per kind, delay_ms for delayed, and a seed', () => {
    expect(
      parseChaosInput(
        {
          duplicate: { next: 2 },
          stale_timestamp: { rate: 0.1 },
          delayed: { rate: 1, delay_ms: 5_000 },
          seed: 7,
        },
        99,
      ),
    ).toEqual({
      seed: 7,
      random_state: 7,
      kinds: {
        duplicate: { next: 2 },
        stale_timestamp: { rate: 0.1 },
        delayed: { rate: 1, delay_ms: 5_000 },
      },
      applied: {},
    });
  });

  it('uses the drawn seed when none is given', () => {
    expect(parseChaosInput({ duplicate: { next: 1 } }, 12345)).toMatchObject({
      seed: 12345,
      random_state: 12345,
    });
  });

  it('limits are inclusive: seed 0–4294967295, next 1–1000, rate 0–1, delay_ms 1–21600000 (6 h)', () => {
    expect(parseChaosInput({ seed: 0 }, 9).seed).toBe(0);
    expect(parseChaosInput({ seed: 4_294_967_295 }, 9).seed).toBe(4_294_967_295);
    expect(
      parseChaosInput(
        {
          duplicate: { next: 1 },
          out_of_order: { next: 1_000 },
          tampered_body: { rate: 0 },
          wrong_secret: { rate: 1 },
        },
        1,
      ).kinds,
    ).toStrictEqual({
      duplicate: { next: 1 },
      out_of_order: { next: 1_000 },
      tampered_body: { rate: 0 },
      wrong_secret: { rate: 1 },
    });
    expect(parseChaosInput({ delayed: { next: 1, delay_ms: 1 } }, 1).kinds).toStrictEqual({
      delayed: { next: 1, delay_ms: 1 },
    });
    expect(parseChaosInput({ delayed: { rate: 0.5, delay_ms: 21_600_000 } }, 1).kinds).toStrictEqual({
      delayed: { rate: 0.5, delay_ms: 21_600_000 },
    });
  });

  it('a setting without delay_ms has no delay_ms key at all (GET shows the settings as given)', () => {
    const chaos = parseChaosInput({ delayed: { next: 2 }, duplicate: { rate: 0.5 } }, 1);
    expect(chaos.kinds).toStrictEqual({ delayed: { next: 2 }, duplicate: { rate: 0.5 } });
    expect(Object.keys(chaos.kinds.delayed ?? {})).toEqual(['next']);
  });

  it('an empty body sets no kind, with the drawn seed', () => {
    expect(parseChaosInput({}, 77)).toStrictEqual({ seed: 77, random_state: 77, kinds: {}, applied: {} });
  });

  const KINDS =
    'duplicate, out_of_order, delayed, stale_timestamp, tampered_body, wrong_secret, other_event_signature';
  const SEED = 'seed must be a whole number from 0 to 4294967295.';
  const DELAY = 'delay_ms must be whole milliseconds from 1 to 21600000 (6 h).';
  const SETTING = (kind: string) => `${kind} must be {"rate": 0 to 1} or {"next": N}.`;
  const RATE = (kind: string) => `${kind}.rate must be a number from 0 to 1.`;
  const NEXT = (kind: string) => `${kind}.next must be a whole number from 1 to 1000.`;

  it.each([
    [[], 'body', 'not_an_object', 'The body must be a JSON object of chaos kinds.'],
    [null, 'body', 'not_an_object', 'The body must be a JSON object of chaos kinds.'],
    [{ lost: { rate: 1 } }, 'lost', 'unknown_kind', `lost is not a chaos kind; use ${KINDS} (and seed).`],
    [{ duplicate: 1 }, 'duplicate', 'invalid_value', SETTING('duplicate')],
    [{ duplicate: {} }, 'duplicate', 'invalid_value', SETTING('duplicate')],
    [{ delayed: { delay_ms: 10 } }, 'delayed', 'invalid_value', SETTING('delayed')],
    [{ duplicate: { rate: 0.5, next: 1 } }, 'duplicate', 'invalid_value', SETTING('duplicate')],
    [{ duplicate: { rate: 1.5 } }, 'duplicate.rate', 'invalid_value', RATE('duplicate')],
    [{ duplicate: { rate: 1.000001 } }, 'duplicate.rate', 'invalid_value', RATE('duplicate')],
    [{ wrong_secret: { rate: -0.1 } }, 'wrong_secret.rate', 'invalid_value', RATE('wrong_secret')],
    [{ duplicate: { rate: '0.5' } }, 'duplicate.rate', 'invalid_value', RATE('duplicate')],
    [{ duplicate: { next: 0 } }, 'duplicate.next', 'invalid_value', NEXT('duplicate')],
    [{ duplicate: { next: 1_001 } }, 'duplicate.next', 'invalid_value', NEXT('duplicate')],
    [{ out_of_order: { next: 1.5 } }, 'out_of_order.next', 'invalid_value', NEXT('out_of_order')],
    [{ duplicate: { next: '2' } }, 'duplicate.next', 'invalid_value', NEXT('duplicate')],
    [
      { duplicate: { next: 1, delay_ms: 10 } },
      'duplicate.delay_ms',
      'unknown_field',
      'duplicate takes rate or next.',
    ],
    [
      { delayed: { next: 1, delay: 10 } },
      'delayed.delay',
      'unknown_field',
      'delayed takes rate or next, and delay_ms.',
    ],
    [{ delayed: { next: 1, delay_ms: 0 } }, 'delayed.delay_ms', 'invalid_value', DELAY],
    [{ delayed: { rate: 1, delay_ms: 21_600_001 } }, 'delayed.delay_ms', 'invalid_value', DELAY],
    [{ delayed: { next: 1, delay_ms: 1.5 } }, 'delayed.delay_ms', 'invalid_value', DELAY],
    [{ delayed: { next: 1, delay_ms: null } }, 'delayed.delay_ms', 'invalid_value', DELAY],
    [{ duplicate: { next: 1 }, seed: -1 }, 'seed', 'invalid_value', SEED],
    [{ duplicate: { next: 1 }, seed: 2 ** 32 }, 'seed', 'invalid_value', SEED],
    [{ duplicate: { next: 1 }, seed: 1.5 }, 'seed', 'invalid_value', SEED],
    [{ duplicate: { next: 1 }, seed: '42' }, 'seed', 'invalid_value', SEED],
  ])('%j: 400 validation_error on %s (%s)', (input, field, reason, message) => {
    expect(refusalOf(() => parseChaosInput(input, 1))).toEqual({
      status: 400,
      code: 'validation_error',
      message,
      details: { field, reason },
    });
  });
});

describe('isForgedChaosKind', () => {
  it('the four forged kinds are, duplicate, out_of_order and delayed are not', () => {
    expect(Object.fromEntries(CHAOS_KINDS.map((kind) => [kind, isForgedChaosKind(kind)]))).toEqual({
      duplicate: false,
      out_of_order: false,
      delayed: false,
      stale_timestamp: true,
      tampered_body: true,
      wrong_secret: true,
      other_event_signature: true,
    });
  });
});

describe('planChaos', () => {
  it('gives `next` kinds to exactly that many deliveries, in the order of the kinds', () => {
    const chaos = parseChaosInput({ wrong_secret: { next: 1 }, duplicate: { next: 2 } }, 1);
    expect([planChaos(chaos), planChaos(chaos), planChaos(chaos)]).toEqual([
      ['duplicate', 'wrong_secret'],
      ['duplicate'],
      [],
    ]);
    expect(chaosView('e', chaos)).toEqual({
      endpoint_id: 'e',
      seed: 1,
      duplicate: { next: 0 },
      wrong_secret: { next: 0 },
      applied: { duplicate: 2, wrong_secret: 1 },
    });
  });

  it('draws rates from the seed: the same seed gives the same deliveries, another seed others', () => {
    const run = (seed: number) => {
      const chaos = parseChaosInput({ duplicate: { rate: 0.5 }, seed }, 0);
      return Array.from({ length: 20 }, () => planChaos(chaos).length);
    };
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
    // Exactly the draws of the generator from the seed, each below the rate.
    let state = 42;
    const expected = Array.from({ length: 20 }, () => {
      const [value, next] = nextRandom(state);
      state = next;
      return value < 0.5 ? 1 : 0;
    });
    expect(run(42)).toEqual(expected);
  });

  it('a draw hits when it is below the rate: rate 0 never, not even on a draw of exactly 0', () => {
    expect(nextRandom(SEED_DRAWING_ZERO)).toEqual([0, 0]);
    const never = parseChaosInput({ duplicate: { rate: 0 }, seed: SEED_DRAWING_ZERO }, 1);
    expect(planChaos(never)).toEqual([]);
    expect(never.random_state).toBe(0);
    // The same draw of 0 is below any positive rate.
    const tiny = parseChaosInput({ duplicate: { rate: Number.MIN_VALUE }, seed: SEED_DRAWING_ZERO }, 1);
    expect(planChaos(tiny)).toEqual(['duplicate']);
    expect(tiny.applied).toEqual({ duplicate: 1 });
  });

  it('rate 0 never, rate 1 always', () => {
    const chaos = parseChaosInput({ tampered_body: { rate: 0 }, stale_timestamp: { rate: 1 } }, 5);
    expect(Array.from({ length: 5 }, () => planChaos(chaos))).toEqual(
      Array.from({ length: 5 }, () => ['stale_timestamp']),
    );
  });
});

describe('chaosHoldMs', () => {
  it('delayed waits its delay_ms (60 s by default), out_of_order at most 60 s, others not at all', () => {
    const chaos = parseChaosInput({ delayed: { next: 1, delay_ms: 9_000 } }, 1);
    expect(chaosHoldMs(chaos, ['delayed'])).toBe(9_000);
    expect(chaosHoldMs(parseChaosInput({ delayed: { next: 1 } }, 1), ['delayed'])).toBe(60_000);
    expect(chaosHoldMs(chaos, ['out_of_order'])).toBe(60_000);
    expect(chaosHoldMs(chaos, ['duplicate', 'wrong_secret'])).toBe(0);
  });
});

describe('nextRandom', () => {
  it('is mulberry32: known first values from seed 0', () => {
    const [first, state] = nextRandom(0);
    expect(first).toBeCloseTo(0.26642920868471265, 15);
    expect(nextRandom(state)[0]).toBeCloseTo(0.0003297457005828619, 15);
  });
});

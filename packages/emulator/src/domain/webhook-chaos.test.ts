import { describe, expect, it } from 'vitest';
import { nextRandom } from './seeded-random';
import { chaosHoldMs, chaosView, parseChaosInput, planChaos } from './webhook-chaos';

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

  it.each([
    [[], 'body', 'not_an_object'],
    [{ lost: { rate: 1 } }, 'lost', 'unknown_kind'],
    [{ duplicate: 1 }, 'duplicate', 'invalid_value'],
    [{ duplicate: {} }, 'duplicate', 'invalid_value'],
    [{ duplicate: { rate: 0.5, next: 1 } }, 'duplicate', 'invalid_value'],
    [{ duplicate: { rate: 1.5 } }, 'duplicate.rate', 'invalid_value'],
    [{ duplicate: { rate: '0.5' } }, 'duplicate.rate', 'invalid_value'],
    [{ duplicate: { next: 0 } }, 'duplicate.next', 'invalid_value'],
    [{ duplicate: { next: 1.5 } }, 'duplicate.next', 'invalid_value'],
    [{ duplicate: { next: 1, delay_ms: 10 } }, 'duplicate.delay_ms', 'unknown_field'],
    [{ delayed: { next: 1, delay_ms: 0 } }, 'delayed.delay_ms', 'invalid_value'],
    [{ duplicate: { next: 1 }, seed: -1 }, 'seed', 'invalid_value'],
    [{ duplicate: { next: 1 }, seed: 2 ** 32 }, 'seed', 'invalid_value'],
  ])('%j: validation_error on %s (%s)', (input, field, reason) => {
    expect(() => parseChaosInput(input, 1)).toThrow(
      expect.objectContaining({ code: 'validation_error', details: { field, reason } }),
    );
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

import { CHAOS_KINDS, type ChaosKind } from './chaos-kinds';
import { invalid, isObject } from './input-checks';
import { nextRandom } from './seeded-random';

// The kinds live in their own module, which the console and the CLI load without the rules below.
export { CHAOS_KINDS, type ChaosKind } from './chaos-kinds';

/** The kinds whose copy is forged: a right receiver refuses it with a 4xx. */
export type ForgedChaosKind = 'stale_timestamp' | 'tampered_body' | 'wrong_secret' | 'other_event_signature';

/** Whether a copy of `kind` is forged (refused by a right receiver). */
export function isForgedChaosKind(kind: ChaosKind): kind is ForgedChaosKind {
  return kind !== 'duplicate' && kind !== 'out_of_order' && kind !== 'delayed';
}

/** One kind's setting: a share of deliveries, or how many of the next ones still get it. */
export type ChaosSetting = ({ rate: number } | { next: number }) & { delay_ms?: number };

/** An endpoint's chaos as stored: its settings, and the generator that makes `rate` deterministic. */
export interface EndpointChaos {
  seed: number;
  /** The seeded generator's state after the draws so far, so a restart continues the sequence. */
  random_state: number;
  kinds: Partial<Record<ChaosKind, ChaosSetting>>;
  /** How many deliveries got each kind so far. */
  applied: Partial<Record<ChaosKind, number>>;
}

/** Emulator time a `delayed` delivery waits unless its setting says otherwise. */
export const DEFAULT_CHAOS_DELAY_MS = 60_000;
/** Longest emulator time an `out_of_order` delivery waits for another delivery to overtake it. */
export const OUT_OF_ORDER_HOLD_MS = 60_000;
const MAX_DELAY_MS = 6 * 3_600_000;
const MAX_NEXT = 1_000;

/**
 * The body of `PUT /_emulator/endpoints/{id}/chaos`: `{ "<kind>": {"rate": 0–1} | {"next": N}, …,
 * "seed"?: N }`, `delayed` also taking `delay_ms`. `randomSeed` is used when no seed is given (and
 * shown, so the run can be repeated).
 */
export function parseChaosInput(input: unknown, randomSeed: number): EndpointChaos {
  if (!isObject(input)) invalid('body', 'not_an_object', 'The body must be a JSON object of chaos kinds.');
  const kinds: Partial<Record<ChaosKind, ChaosSetting>> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'seed') continue;
    if (!(CHAOS_KINDS as readonly string[]).includes(key)) {
      invalid(key, 'unknown_kind', `${key} is not a chaos kind; use ${CHAOS_KINDS.join(', ')} (and seed).`);
    }
    kinds[key as ChaosKind] = parseSetting(key as ChaosKind, value);
  }
  const seed = input.seed ?? randomSeed;
  if (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 0xffff_ffff) {
    invalid('seed', 'invalid_value', 'seed must be a whole number from 0 to 4294967295.');
  }
  return { seed: seed as number, random_state: seed as number, kinds, applied: {} };
}

function parseSetting(kind: ChaosKind, value: unknown): ChaosSetting {
  if (!isObject(value) || 'rate' in value === 'next' in value) {
    invalid(kind, 'invalid_value', `${kind} must be {"rate": 0 to 1} or {"next": N}.`);
  }
  for (const key of Object.keys(value)) {
    if (key !== 'rate' && key !== 'next' && !(key === 'delay_ms' && kind === 'delayed')) {
      invalid(
        `${kind}.${key}`,
        'unknown_field',
        `${kind} takes rate or next${kind === 'delayed' ? ', and delay_ms' : ''}.`,
      );
    }
  }
  const delay = value.delay_ms;
  if (
    delay !== undefined &&
    (!Number.isInteger(delay) || (delay as number) < 1 || (delay as number) > MAX_DELAY_MS)
  ) {
    invalid(
      `${kind}.delay_ms`,
      'invalid_value',
      'delay_ms must be whole milliseconds from 1 to 21600000 (6 h).',
    );
  }
  const extra = delay === undefined ? {} : { delay_ms: delay as number };
  if ('rate' in value) {
    const rate = value.rate;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
      invalid(`${kind}.rate`, 'invalid_value', `${kind}.rate must be a number from 0 to 1.`);
    }
    return { rate, ...extra };
  }
  const next = value.next;
  if (!Number.isInteger(next) || (next as number) < 1 || (next as number) > MAX_NEXT) {
    invalid(`${kind}.next`, 'invalid_value', `${kind}.next must be a whole number from 1 to ${MAX_NEXT}.`);
  }
  return { next: next as number, ...extra };
}

/**
 * The kinds the next delivery gets, in {@link CHAOS_KINDS} order. Counts `next` down and draws
 * one number per `rate` kind from the seeded generator, so the same seed and the same deliveries
 * give the same chaos. Changes `chaos` (the caller persists it).
 */
export function planChaos(chaos: EndpointChaos): ChaosKind[] {
  const planned: ChaosKind[] = [];
  for (const kind of CHAOS_KINDS) {
    const setting = chaos.kinds[kind];
    if (!setting) continue;
    let hit: boolean;
    if ('next' in setting) {
      hit = setting.next > 0;
      if (hit) setting.next -= 1;
    } else {
      const [value, state] = nextRandom(chaos.random_state);
      chaos.random_state = state;
      hit = value < setting.rate;
    }
    if (!hit) continue;
    planned.push(kind);
    chaos.applied[kind] = (chaos.applied[kind] ?? 0) + 1;
  }
  return planned;
}

/** How long the first attempt of a delivery with these kinds waits (0: it leaves at once). */
export function chaosHoldMs(chaos: EndpointChaos | null | undefined, kinds: readonly ChaosKind[]): number {
  if (kinds.includes('delayed')) return chaos?.kinds.delayed?.delay_ms ?? DEFAULT_CHAOS_DELAY_MS;
  return kinds.includes('out_of_order') ? OUT_OF_ORDER_HOLD_MS : 0;
}

/** `GET /_emulator/endpoints/{id}/chaos`: the settings as given (`next` counting down), the seed, what was applied. */
export function chaosView(endpointId: string, chaos: EndpointChaos | null | undefined) {
  const settings = Object.fromEntries(
    Object.entries(chaos?.kinds ?? {}).map(([kind, setting]) => [kind, { ...setting }]),
  );
  return { endpoint_id: endpointId, seed: chaos?.seed ?? null, ...settings, applied: { ...chaos?.applied } };
}

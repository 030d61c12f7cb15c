/**
 * One step of mulberry32, a small seeded generator: a number in [0, 1) and the next state. The
 * state is a plain 32-bit integer, so it can be stored with the rest of the state and a restart
 * continues the same sequence. Not for secrets: only to make chance repeatable.
 */
export function nextRandom(state: number): [value: number, nextState: number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let mixed = Math.imul(next ^ (next >>> 15), next | 1);
  mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
  return [((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296, next];
}

import { DURATION_UNITS } from '../domain/duration';

/** Milliseconds in the scenario duration grammar (`1h30m5s`), which `advance` reads back exactly. */
export function formatScenarioDuration(ms: number): string {
  let rest = ms;
  let text = '';
  for (const [unit, size] of DURATION_UNITS) {
    if (rest < size) continue;
    text += `${Math.floor(rest / size)}${unit}`;
    rest %= size;
  }
  return text || '0ms';
}

import type { ChaosKind } from '../../domain/chaos-kinds';
import type { ChaosView } from './control-types';

/** One kind's setting as the API shows it. */
export type Setting = { next?: number; rate?: number; delay_ms?: number };

/** The settings the chaos form starts from: the kinds set, and the seed. */
export interface ChaosDraft {
  kinds: Partial<Record<ChaosKind, Setting>>;
  seed: number | null;
}

/** How one setting reads: `next 2`, `rate 0.1`, with a `delayed` kind's delay. */
export function settingText(setting: Setting): string {
  const amount = setting.next === undefined ? `rate ${setting.rate}` : `next ${setting.next}`;
  return setting.delay_ms === undefined ? amount : `${amount}, ${setting.delay_ms} ms`;
}

/** The kinds set in a `GET /_emulator/endpoints/{id}/chaos` answer, the seed and the counts apart. */
export function splitChaos(view: ChaosView) {
  const { endpoint_id: _id, seed, applied, ...kinds } = view;
  return { seed, applied: applied as Record<string, number>, kinds: kinds as Record<string, Setting> };
}

/** The input a refused field names: `duplicate.rate` is the duplicate amount, `delayed` its mode. */
export function refusedChaosInput(field: unknown): string | undefined {
  if (typeof field !== 'string') return undefined;
  const [kind, part] = field.split('.');
  if (kind === 'seed' || part === 'delay_ms') return field;
  return `${kind}.${part ? 'amount' : 'mode'}`;
}

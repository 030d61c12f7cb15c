import type { EndpointChaos } from '../../client/control-api';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { wholeFlag } from './_faults';
import { idOption } from './_id-option';

/** The chaos kinds, as the control API names them, with their flag (docs/testing-your-app.md#webhook-chaos). */
export const CHAOS_FLAGS = {
  duplicate: 'duplicate',
  out_of_order: 'outOfOrder',
  delayed: 'delayed',
  stale_timestamp: 'staleTimestamp',
  tampered_body: 'tamperedBody',
  wrong_secret: 'wrongSecret',
  other_event_signature: 'otherEventSignature',
} as const;

type ChaosKind = keyof typeof CHAOS_FLAGS;

/** `parley emulator chaos ENDPOINT_ID [--<kind> next:N|rate:R]… [--delay-ms N] [--seed N] | --off | --show`. */
export interface ChaosOptions extends ClientOptions {
  endpointId: string;
  duplicate?: string;
  outOfOrder?: string;
  delayed?: string;
  staleTimestamp?: string;
  tamperedBody?: string;
  wrongSecret?: string;
  otherEventSignature?: string;
  /** Emulator time a `delayed` delivery waits (default 60 s). */
  delayMs?: string | number;
  seed?: string | number;
  off?: boolean;
  show?: boolean;
}

/** What the command did, and the endpoint's chaos after it (settings, seed, `applied` counts). */
export interface ChaosResult {
  action: 'set' | 'off' | 'show';
  chaos: EndpointChaos;
}

const flagName = (kind: ChaosKind) => `--${kind.replaceAll('_', '-')}`;

/** `next:2` → `{next: 2}`, `rate:0.1` → `{rate: 0.1}`; anything else is exit 2. */
function parseSetting(kind: ChaosKind, value: string): { next: number } | { rate: number } {
  const match = /^(next|rate):(.+)$/.exec(value.trim());
  const amount = match ? Number(match[2]) : Number.NaN;
  if (match?.[1] === 'next' && Number.isInteger(amount) && amount >= 1 && amount <= 1_000)
    return { next: amount };
  if (match?.[1] === 'rate' && /^\d*\.?\d+$/.test(match[2]!) && amount >= 0 && amount <= 1)
    return { rate: amount };
  throw usageError(
    `${flagName(kind)} takes next:N (the next N deliveries, 1 to 1000) or rate:R (that share, 0 to 1), e.g. next:2 or rate:0.1; not "${value}"`,
  );
}

/**
 * Webhook chaos on one endpoint (`PUT/GET/DELETE /_emulator/endpoints/{id}/chaos`): the kinds given
 * replace the endpoint's settings; `off` turns chaos off (deliveries already planned keep theirs);
 * no kind, or `show`, shows the settings with `next` counting down and the `applied` counts.
 */
export async function endpointChaos(options: ChaosOptions, context: CommandContext): Promise<ChaosResult> {
  const endpoint = idOption(options.endpointId, 'the endpoint', 'GET /_emulator/endpoints');
  if (endpoint === undefined)
    throw usageError('missing endpoint id: e.g. parley emulator chaos ENDPOINT_ID --duplicate next:1');
  const settings: Record<string, unknown> = {};
  for (const [kind, option] of Object.entries(CHAOS_FLAGS) as [
    ChaosKind,
    (typeof CHAOS_FLAGS)[ChaosKind],
  ][]) {
    const value = options[option];
    if (value !== undefined) settings[kind] = parseSetting(kind, value);
  }
  const delayMs = wholeFlag('--delay-ms', options.delayMs, 1, 21_600_000);
  if (delayMs !== undefined) {
    if (settings.delayed === undefined)
      throw usageError('--delay-ms goes with --delayed, e.g. --delayed next:1 --delay-ms 5000');
    settings.delayed = { ...(settings.delayed as object), delay_ms: delayMs };
  }
  const seed = wholeFlag('--seed', options.seed, 0, 0xffff_ffff);
  const setting = Object.keys(settings).length > 0;
  if (seed !== undefined && !setting)
    throw usageError('--seed goes with at least one kind, e.g. --duplicate rate:0.5 --seed 42');
  if ([setting, options.off === true, options.show === true].filter(Boolean).length > 1) {
    throw usageError('give chaos kinds, --off or --show, not several');
  }
  const control = await openControl(options, context);
  if (options.off) {
    await control.clearChaos(endpoint);
    return { action: 'off', chaos: await control.getChaos(endpoint) };
  }
  if (setting) {
    return {
      action: 'set',
      chaos: await control.setChaos(endpoint, { ...settings, ...(seed === undefined ? {} : { seed }) }),
    };
  }
  return { action: 'show', chaos: await control.getChaos(endpoint) };
}

/** `duplicate next 2, stale_timestamp rate 0.1` for the kinds set. */
export function describeChaos(chaos: EndpointChaos): string {
  const kinds = (Object.keys(CHAOS_FLAGS) as ChaosKind[])
    .filter((kind) => chaos[kind] !== undefined)
    .map((kind) => {
      const setting = chaos[kind] as { next?: number; rate?: number; delay_ms?: number };
      const amount = setting.next === undefined ? `rate ${setting.rate}` : `next ${setting.next}`;
      return `${kind} ${amount}${setting.delay_ms === undefined ? '' : ` (delay ${setting.delay_ms} ms)`}`;
    });
  return kinds.join(', ');
}

export default defineCommand({
  run: endpointChaos,
  json: (result) => result.chaos,
  render: ({ action, chaos }) => {
    const kinds = describeChaos(chaos);
    const applied = Object.entries(chaos.applied)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    const head =
      action === 'off' || kinds === ''
        ? `Chaos off for endpoint ${chaos.endpoint_id}`
        : `Chaos on endpoint ${chaos.endpoint_id} (seed ${chaos.seed}): ${kinds}`;
    return `${head}${applied === '' ? '' : `\nApplied so far: ${applied}`}`;
  },
});

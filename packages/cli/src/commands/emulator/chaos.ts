import type { ChaosView } from '@parley/emulator/control';
import { CHAOS_KINDS, type ChaosKind } from '@parley/emulator/rules';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { flagRefusal, numberValue } from './_flag-refusal';
import { idOption } from './_id-option';

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
  chaos: ChaosView;
}

/** `out_of_order` is `--out-of-order`, read by commander as `outOfOrder`. */
const flagName = (kind: ChaosKind) => `--${kind.replaceAll('_', '-')}`;
const optionName = (kind: ChaosKind) =>
  kind.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase()) as keyof ChaosOptions;

/** `next:2` → `{next: 2}`, `rate:0.1` → `{rate: 0.1}`, amounts as given; not that form is exit 2. */
function parseSetting(kind: ChaosKind, value: string): Record<string, unknown> {
  const match = /^(next|rate):(.*)$/.exec(value.trim());
  if (match) return { [match[1]!]: numberValue(match[2]) };
  throw usageError(
    `${flagName(kind)} takes next:N (the next N deliveries) or rate:R (that share of them), e.g. next:2 or rate:0.1; not "${value}"`,
  );
}

/** The flag that fills a field of the chaos body: `duplicate.next` is `--duplicate next:N`. */
function flagOfField(field: string): string | undefined {
  if (field === 'seed') return '--seed';
  if (field === 'delayed.delay_ms') return '--delay-ms';
  const [kind, part] = field.split('.');
  const known = CHAOS_KINDS.find((each) => each === kind);
  if (known === undefined) return undefined;
  if (part === 'next' || part === 'rate') return `${flagName(known)} ${part}:${part === 'next' ? 'N' : 'R'}`;
  return flagName(known);
}

/**
 * Webhook chaos on one endpoint (`PUT/GET/DELETE /_emulator/endpoints/{id}/chaos`): the kinds given
 * replace the endpoint's settings; `off` turns chaos off (deliveries already planned keep theirs);
 * no kind, or `show`, shows the settings with `next` counting down and the `applied` counts. The
 * amounts go to the emulator as given; one it refuses is exit 2 naming the flag.
 */
export async function endpointChaos(options: ChaosOptions, context: CommandContext): Promise<ChaosResult> {
  const endpoint = idOption(options.endpointId, 'the endpoint', 'GET /_emulator/endpoints');
  if (endpoint === undefined)
    throw usageError('missing endpoint id: e.g. parley emulator chaos ENDPOINT_ID --duplicate next:1');
  const settings: Record<string, Record<string, unknown>> = {};
  for (const kind of CHAOS_KINDS) {
    const value = options[optionName(kind)];
    if (typeof value === 'string') settings[kind] = parseSetting(kind, value);
  }
  const delayMs = numberValue(options.delayMs);
  // With --delayed, or alone: then the emulator refuses a delayed setting that has no next or rate.
  if (delayMs !== undefined) settings.delayed = { ...settings.delayed, delay_ms: delayMs };
  const seed = numberValue(options.seed);
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
    const chaos = await control
      .setChaos(endpoint, { ...settings, ...(seed === undefined ? {} : { seed }) })
      .catch((error: unknown) => {
        throw flagRefusal(error, flagOfField);
      });
    return { action: 'set', chaos };
  }
  return { action: 'show', chaos: await control.getChaos(endpoint) };
}

/** `duplicate next 2, stale_timestamp rate 0.1` for the kinds set. */
export function describeChaos(chaos: ChaosView): string {
  const kinds = CHAOS_KINDS.filter((kind) => chaos[kind] !== undefined).map((kind) => {
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

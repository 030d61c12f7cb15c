import { isWebhookVerificationError, verifyWebhook, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import { controlApi, type TemporaryEndpoint } from '../../client/control-api';
import { emulatorNow } from '../../client/emulator-probe';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { defineCommand } from '../command-module';
import { listenDescription } from './_endpoint-description';
import { forwardDelivery } from './_forward';
import { listenSecret } from './_listen-secret';
import { type ReceivedDelivery, startReceiver } from './_receiver';
import { createListenReporter } from './_reporter';
import { watchResets } from './_reset-watch';

/** `parley listen` flags. */
export interface ListenOptions extends ClientOptions {
  forwardTo: string;
  /** Comma-separated event types; all by default. */
  events?: string;
  /** Print the signing secret for `forwardTo` and exit. */
  printSecret?: boolean;
  /** Sign with this `whsec_…` secret instead of the one saved for `forwardTo` (not saved). */
  secret?: string;
}

/** What a listen session did, returned when it ends. */
export interface ListenSummary {
  endpoint_id: string;
  deliveries: number;
}

/** What `--print-secret` prints: the secret alone, or with `--json` this object. */
export interface PrintedSecret {
  secret: string;
  forward_to: string;
  profile: string;
}

/**
 * Forwards the emulator's webhooks to a local app until interrupted: registers a temporary
 * endpoint pointing at a listener on 127.0.0.1, described `parley listen → <forward url>` and
 * signed with the secret saved for that app (see `listenSecret`), verifies each delivery with the
 * SDK, forwards it unchanged with ofetch, answers the emulator with the app's status, and removes
 * the endpoint when the signal aborts (Ctrl-C, SIGTERM) or anything fails. With `printSecret` it
 * only prints that secret and returns.
 */
export async function listen(
  options: ListenOptions,
  context: CommandContext,
): Promise<ListenSummary | PrintedSecret> {
  const forwardTo = checkedUrl(options.forwardTo);
  const events = eventTypes(options.events);
  if (options.printSecret) {
    // No call at all: the secret is the saved one, so the app can get it before listen runs.
    const { secret, profile, problem } = await listenSecret(forwardTo, options, context.env);
    // A secret that the next run will not use is worthless to a script: refuse rather than mislead.
    if (problem) throw new ExitError(EXIT.config, `could not save the listen secret: ${problem}`);
    return { secret, forward_to: forwardTo, profile };
  }
  const api = await openApiSession(options, context);
  const status = await api.call((client) => client.status.get());
  const chosen = await listenSecret(forwardTo, options, context.env);
  if (chosen.problem)
    context.stderr.write(`The secret was not saved (${chosen.problem}): the next run gets another\n`);
  const fetchFunction = context.fetch ?? ((request: Request) => fetch(request));
  const control = controlApi(api.credentials.baseUrl, fetchFunction);
  const report = createListenReporter(context);
  let secret = chosen.secret;
  let deliveries = 0;
  const refusals = { onRefused: (reason: string) => context.stderr.write(`${reason}\n`) };
  const receiver = await startReceiver(refusals, async ({ body, headers }: ReceivedDelivery) => {
    deliveries++;
    const received = new Date();
    let verification: { ok: true; type: string; id: string } | { ok: false; reason: string; id: string };
    try {
      const event = await verifyWebhook(body, headers, secret);
      verification = { ok: true, type: event.type, id: event.id };
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error;
      verification = {
        ok: false,
        reason: `${error.reason}: ${error.message}`,
        id: String(headers['parley-event-id'] ?? '?'),
      };
    }
    // Asked while the emulator waits for this answer: its clock is at the attempt's time, which
    // `parley logs tail` shows, and after an advance is not this machine's.
    const [forward, emulatorAt] = await Promise.all([
      forwardDelivery(forwardTo, body, headers),
      emulatorNow(control.origin, status.workspace_id, fetchFunction, context.signal),
    ]);
    report.delivery({ received, emulatorAt, verification, forward, forwardTo });
    // Unreachable app: 502, so the emulator schedules a retry as it would for a down receiver.
    return forward.status ?? 502;
  });
  let endpointId: string | undefined;
  let removedByReset = false;
  // Ends the reset watch when listen ends, whatever ends it.
  const ending = new AbortController();
  let watching: Promise<void> | undefined;
  try {
    const register = async (): Promise<TemporaryEndpoint> => {
      const endpoint = await control.createEndpoint(
        status.application_id,
        receiver.url,
        events,
        secret,
        listenDescription(forwardTo),
      );
      if (endpoint.secret !== secret) {
        // An emulator from before chosen secrets ignores the field: verify with what it signs with.
        context.stderr.write(
          'This emulator chose its own secret: it changes on every run (update the emulator)\n',
        );
        secret = endpoint.secret;
      }
      endpointId = endpoint.id;
      return endpoint;
    };
    const endpoint = await register();
    report.ready({ endpoint, forwardTo, applicationId: status.application_id });
    const lost = new Promise<never>((_, reject) => {
      // A reset of the emulator removes every endpoint, this one too: register it again, with the
      // same secret, so the app's PARLEY_WEBHOOK_SECRET stays right.
      watching = watchResets({
        origin: control.origin,
        fetch: fetchFunction,
        signal: AbortSignal.any([context.signal, ending.signal]),
        onReset: async () => {
          const previous = endpointId;
          endpointId = undefined;
          removedByReset = true;
          try {
            report.registeredAgain({ endpoint: await register(), previousId: previous, forwardTo });
            removedByReset = false;
          } catch (error) {
            reject(
              new ExitError(
                EXIT.config,
                `the emulator was reset, which removed the temporary endpoint, and it could not be registered again: ${(error as Error).message}`,
              ),
            );
          }
        },
        onUnavailable: (reason) =>
          context.stderr.write(
            `Not following the emulator's activity (${reason}): a reset of the emulator, which removes this endpoint, would go unnoticed\n`,
          ),
      });
    });
    await Promise.race([aborted(context.signal), lost]);
    return { endpoint_id: endpointId ?? endpoint.id, deliveries };
  } finally {
    ending.abort();
    await watching;
    await receiver.close();
    if (endpointId) report.stopped(await control.deleteEndpoint(endpointId));
    else if (removedByReset) report.stopped('gone');
  }
}

/** Resolves when the signal aborts (Ctrl-C, SIGTERM). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function checkedUrl(text: string | undefined): string {
  if (!text)
    throw usageError('missing --forward-to: the URL of your app, e.g. http://127.0.0.1:3000/webhooks');
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {}
  throw usageError(`--forward-to must be an http(s) URL, got "${text}"`);
}

function eventTypes(list: string | undefined): string[] {
  if (!list) return [...WEBHOOK_EVENT_TYPES];
  const types = list
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  const unknown = types.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0 || types.length === 0) {
    throw usageError(`unknown event type ${unknown.join(', ')}: use ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return types;
}

export default defineCommand({
  run: listen,
  longRunning: true,
  render: (result) => ('secret' in result ? result.secret : ''),
  // A listen session already printed its lines as they came.
  json: (result) => ('secret' in result ? result : undefined),
});

import type { WebhookEvent } from '@parley/sdk';
import { listAll } from '../control-client/list-all';
import type { ActivityItem, RequestActivity } from '../core/activity-feed';
import type { StateBundle } from '../core/bundle-types';
import type { EmulatorControl, FaultView } from '../core/control-types';
import { formatScenarioDuration } from './_scenario-duration';

/** What {@link unrecordedNotes} reads: the application's records and what the recording replays. */
export interface UnrecordedInput {
  applicationId: string;
  /** The recording's start (ms). */
  start: number;
  /** Whether the recording replays anything (a send, a customer's message, a triggered event). */
  replaysAnything: boolean;
  bundle: StateBundle;
  /** The application's activity (and its workspace's clock moves), oldest first. */
  activity: readonly ActivityItem[];
  events: readonly WebhookEvent[];
  /** Events a `customer` or `trigger` step makes again. */
  replayed: ReadonlySet<string>;
  /** Recorded sends' names by message id (their status updates are made again). */
  names: ReadonlyMap<string, string>;
}

/**
 * One line per thing the application's history holds that a recording cannot replay faithfully:
 * calls a fault answered (the emulator keeps no body of them), webhook chaos (when it was set is
 * not kept), events no step makes again (an endpoint test), and a history the activity feed no
 * longer holds. Never silent: the recorder writes them as comments at the top of the file.
 */
export async function unrecordedNotes(control: EmulatorControl, input: UnrecordedInput): Promise<string[]> {
  const { activity, start } = input;
  const notes: string[] = [];
  const offset = (at: string) => {
    const ms = Date.parse(at) - start;
    return ms < 0 ? `-${formatScenarioDuration(-ms)}` : `+${formatScenarioDuration(ms)}`;
  };
  const oldest = activity[0];
  if (oldest === undefined ? input.replaysAnything : Date.parse(oldest.at) > start) {
    notes.push(
      `the emulator's activity feed (its last 1,000 items) holds ${oldest === undefined ? "none of this application's history" : `this application's history from ${oldest.at} on`}: faults, triggered events and clock advances before that are not known, and an event a sandbox call made before it is not a trigger step`,
    );
  }
  const answered = new Map<string, RequestActivity[]>();
  for (const item of activity) {
    if (item.kind !== 'request' || item.fault === undefined) continue;
    const calls = answered.get(item.fault) ?? [];
    calls.push(item);
    answered.set(item.fault, calls);
  }
  const keys = new Set(
    input.bundle.keys.filter((key) => key.application_id === input.applicationId).map((key) => key.id),
  );
  const faults = await listAll((page) => control.listFaults(page));
  for (const fault of faults) {
    const calls = answered.get(fault.id);
    if (calls !== undefined) {
      notes.push(
        `fault ${fault.id} (${describeFault(fault)}) answered ${calls
          .map((call) => `${call.method} ${call.path} at ${call.at} (${offset(call.at)})`)
          .join(
            ', ',
          )}: the emulator keeps no body of a call a fault answered, so the replay cannot make that call again, and a fault step would answer another call`,
      );
      answered.delete(fault.id);
    } else if (fault.key_id !== null && keys.has(fault.key_id) && fault.remaining > 0) {
      notes.push(
        `fault ${fault.id} (${describeFault(fault)}) answered no call of this application: when it was set is not kept (its created_at is the emulator's own time)`,
      );
    }
  }
  for (const [id, calls] of answered) {
    notes.push(
      `fault ${id} (deleted since) answered ${calls.length} call(s), the first ${calls[0]!.method} ${calls[0]!.path} at ${calls[0]!.at} (${offset(calls[0]!.at)}): not replayed`,
    );
  }
  // A refused change leaves nothing behind to record, yet the application made it.
  const refused = new Map<string, RequestActivity[]>();
  for (const item of activity) {
    if (item.kind !== 'request' || item.method === 'GET' || item.status < 400 || item.fault !== undefined)
      continue;
    const key = `${item.method} ${item.path} ${item.status}`;
    refused.set(key, [...(refused.get(key) ?? []), item]);
  }
  for (const [key, calls] of refused) {
    const [method, path, status] = key.split(' ');
    notes.push(
      `${calls.length} call(s) ${method} ${path} refused with ${status}, the first at ${calls[0]!.at} (${offset(calls[0]!.at)}): a refused call changed nothing; not replayed`,
    );
  }
  for (const endpoint of input.bundle.endpoints) {
    if (endpoint.application_id !== input.applicationId || !endpoint.chaos) continue;
    const { seed, kinds, applied } = endpoint.chaos;
    const settings = Object.entries(kinds).map(([kind, setting]) => `${kind} ${JSON.stringify(setting)}`);
    const counts = Object.entries(applied).map(([kind, count]) => `${kind} ${count}`);
    notes.push(
      `chaos on endpoint ${endpoint.id} (seed ${seed}; now ${settings.join(', ') || 'no kind'}; applied ${counts.join(', ') || 'none'}): when it was set is not kept, so the replay's deliveries have no chaos`,
    );
  }
  const why = (type: string) =>
    type === 'webhook.test'
      ? 'an endpoint test (POST /_emulator/endpoints/{id}/test) goes to one endpoint; no step makes it'
      : 'no recorded step makes it again';
  for (const event of input.events) {
    if (input.replayed.has(event.id)) continue;
    const message = (event.data as { message?: { id?: unknown } } | undefined)?.message;
    if (
      event.type === 'message.status_updated' &&
      typeof message?.id === 'string' &&
      input.names.has(message.id)
    )
      continue;
    notes.push(
      `event ${event.type} ${event.id} at ${event.created_at} (${offset(event.created_at)}): ${why(event.type)}`,
    );
  }
  // An endpoint test's event is the endpoint's alone: only its delivery names it.
  const known = new Set(input.events.map((event) => event.id));
  for (const delivery of input.bundle.deliveries) {
    if (delivery.application_id !== input.applicationId || known.has(delivery.event_id)) continue;
    known.add(delivery.event_id);
    notes.push(
      `event ${delivery.event_type} ${delivery.event_id} delivered to endpoint ${delivery.endpoint_id} at ${delivery.created_at} (${offset(delivery.created_at)}): ${why(delivery.event_type)}`,
    );
  }
  // From outside (paths, codes): one line each, no control character.
  return notes.map((note) => note.replace(/\p{Cc}/gu, ' '));
}

function describeFault(fault: FaultView): string {
  const who =
    fault.key_id !== null
      ? `key ${fault.key_id}`
      : fault.key_prefix !== null
        ? `keys ${fault.key_prefix}…`
        : 'any key';
  const answer = fault.fault;
  const what =
    'status' in answer
      ? `${answer.status} ${answer.code}${answer.retry_after === undefined ? '' : ` retry_after ${answer.retry_after}`}`
      : 'hang' in answer
        ? 'no answer (hang)'
        : 'drop' in answer
          ? 'connection dropped'
          : `the real answer ${answer.delay_ms} ms late`;
  return `${fault.method ?? 'any method'} ${fault.path ?? '/v1/*'}, ${who}: ${what}, times ${fault.times}, ${fault.remaining} left`;
}

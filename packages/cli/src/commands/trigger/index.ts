import { SANDBOX_EVENT_TYPES, type SandboxEventResult, type SandboxEventType } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { defineCommand } from '../command-module';
import { parseOverrides } from './_overrides';

/** `parley trigger EVENT_TYPE`. */
export interface TriggerOptions extends ClientOptions {
  eventType: string;
  /** `PATH=VALUE` flags: values set in the event (`data.message.text=Hello`). */
  set?: string[];
}

/**
 * `POST /v1/sandbox/events`: queues one synthetic event to the application's endpoints, with the
 * `--set` values in it (checked before the call: a bad path or value is a usage error).
 */
export async function trigger(options: TriggerOptions, context: CommandContext): Promise<SandboxEventResult> {
  if (!SANDBOX_EVENT_TYPES.includes(options.eventType as SandboxEventType)) {
    throw usageError(
      `unknown event type "${options.eventType}": use one of ${SANDBOX_EVENT_TYPES.join(', ')}`,
    );
  }
  const type = options.eventType as SandboxEventType;
  const overrides = parseOverrides(type, options.set ?? []);
  const api = await openApiSession(options, context);
  return api.call((client) => client.sandbox.events.create({ type, ...(overrides ? { overrides } : {}) }));
}

/** The human view: what was queued, where, and how to see it arrive, in sentences. */
export function renderTrigger(result: SandboxEventResult, { style }: CommandContext): string {
  const queued = `Queued ${style.bold(result.type)} ${result.id}`;
  if (result.deliveries_queued === 0) {
    return (
      `${queued}, but ${style.yellow('no endpoint subscribes to it')}.\n` +
      'Run `parley listen --forward-to <url>` in another terminal to receive it.'
    );
  }
  return `${queued} to ${result.deliveries_queued} endpoint${result.deliveries_queued === 1 ? '' : 's'}.`;
}

export default defineCommand({ run: trigger, render: renderTrigger });

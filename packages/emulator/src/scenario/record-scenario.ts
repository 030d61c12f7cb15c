import type { Message } from '@parley/sdk';
import { stringify } from 'yaml';
import { listAll } from '../control-client/list-all';
import type { EmulatorControl } from '../core/control-types';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import { formatScenarioDuration } from './_scenario-duration';

/** Which application's history {@link recordScenario} turns into a scenario. */
export interface RecordScenarioOptions {
  applicationId: string;
  /** The scenario's name (default `recorded`). */
  name?: string;
}

/**
 * A scenario file (YAML text) that replays an application's outbound sends, at the times they
 * were made (from the first), then moves the clock to the workspace's time and expects each
 * message's status there. Run in a fresh workspace, it passes: the sandbox's outcomes depend on
 * the recipient and the time alone.
 */
export async function recordScenario(
  control: EmulatorControl,
  options: RecordScenarioOptions,
): Promise<string> {
  const application = (await listAll((page) => control.listApplications(page))).find(
    (each) => each.id === options.applicationId,
  );
  if (!application) throw new Error(`no application ${options.applicationId}`);
  const messages = (
    await listAll((page) => control.listMessages({ applicationId: options.applicationId, ...page }))
  )
    .filter((message) => message.direction === 'outbound')
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const now = Date.parse((await control.getWorkspaceClock(application.workspace_id)).now);
  const start = messages.length === 0 ? now : Date.parse(messages[0]!.created_at);
  const steps: Record<string, unknown>[] = [];
  let cursor = start;
  const names = new Map<Message, string>();
  messages.forEach((message, index) => {
    const at = Date.parse(message.created_at);
    if (at > cursor) steps.push({ advance: formatScenarioDuration(at - cursor) });
    cursor = Math.max(cursor, at);
    const name = `message_${index + 1}`;
    names.set(message, name);
    steps.push({ send: { name, body: bodyOf(message) } });
  });
  if (now > cursor) steps.push({ advance: formatScenarioDuration(now - cursor) });
  for (const [message, name] of names)
    steps.push({ expect_status: { message: name, status: message.status } });
  if (steps.length === 0) steps.push({ advance: '1ms' });
  return stringify({
    version: 1,
    name: options.name ?? 'recorded',
    start: new Date(start).toISOString(),
    steps,
  });
}

function bodyOf(message: Message): Record<string, unknown> {
  return {
    type: message.type,
    ...(message.connection_id === SANDBOX_ACTIVE_CONNECTION_ID
      ? {}
      : { connection_id: message.connection_id }),
    to: message.to,
    ...(message.template ? { template: message.template } : {}),
    ...(message.text === null ? {} : { text: message.text }),
    ...(message.client_reference === null ? {} : { client_reference: message.client_reference }),
  };
}

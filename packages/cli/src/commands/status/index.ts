import type { RateLimitInfo, Status } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { renderFields } from '../../output/table';
import { defineCommand } from '../command-module';

/** `parley status` with the rate-limit state and request id of the call. */
export interface StatusResult {
  status: Status;
  rateLimit: RateLimitInfo | null;
  requestId: string | undefined;
}

/** `GET /v1/status`: who the key is. `--json` prints the status object itself. */
export async function status(options: ClientOptions, context: CommandContext): Promise<StatusResult> {
  const api = await openApiSession(options, context);
  const { data, rateLimit, requestId } = await api.call((client) => client.status.get().withResponse());
  return { status: data, rateLimit, requestId };
}

/** The human view: one field per line, scopes and the rate-limit window. */
export function renderStatus(
  { status, rateLimit, requestId }: StatusResult,
  { style }: CommandContext,
): string {
  const environment = status.environment === 'live' ? style.magenta('live') : style.cyan(status.environment);
  return renderFields(style, [
    ['Status', style.green(status.status)],
    ['Application', status.application_id],
    ['Workspace', status.workspace_id],
    ['Environment', environment],
    ['Scopes', status.scopes.join(', ') || style.dim('none')],
    ['Capabilities', status.capabilities.join(', ') || style.dim('none')],
    ['External calls', status.sandbox_external_calls ? 'yes' : 'no'],
    ['Server time', status.timestamp],
    [
      'Rate limit',
      rateLimit
        ? `${rateLimit.remaining}/${rateLimit.limit} requests left, window resets in ${rateLimit.reset} s`
        : style.dim('not reported'),
    ],
    ['Request', requestId ?? style.dim('-')],
  ]);
}

export default defineCommand({ run: status, render: renderStatus, json: (result) => result.status });

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isControlResponseError, isEmulatorControlError } from '@parley/emulator/control';
import {
  isAPIError,
  isAPIUserAbortError,
  isConfigurationError,
  isConnectionError,
  isMessageFailedError,
  isTimeoutError,
  isWaitForTimeoutError,
} from '@parley/sdk';
import { innermostCause } from '../client/innermost-cause';
import { isExitError } from '../exit-error';
import { scrubbedData, scrubSecrets } from './_scrub-secrets';

/** An error as a tool shows it to the agent: the API's own error fields, never a stack. */
export interface ToolError {
  code: string;
  message: string;
  request_id: string | null;
  details?: Record<string, unknown>;
}

/**
 * A tool's answer: the data as structured content and as its JSON text (for clients that read
 * only text). Keys and secrets are masked unless `keepSecrets` (the one call that creates one).
 */
export function toolResult(data: Record<string, unknown>, keepSecrets = false): CallToolResult {
  const shown = keepSecrets ? data : scrubbedData(data);
  return { structuredContent: shown, content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }] };
}

/** A failed tool call: `{ error: { code, message, request_id } }` with `isError`, secrets masked. */
export function toolFailure(error: unknown): CallToolResult {
  const shown = scrubbedData({ error: toolError(error) });
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }] };
}

/** The typed errors of the SDK, the control client and the CLI as {@link ToolError}. */
export function toolError(error: unknown): ToolError {
  if (isAPIError(error)) {
    return {
      code: error.code,
      // The SDK adds "(status code, request id)" to the API's message: both are fields here.
      message: error.message.replace(/ \(\d{3} [^()]*\)$/, ''),
      request_id: error.requestId ?? null,
      ...(Object.keys(error.details).length > 0 ? { details: error.details } : {}),
    };
  }
  if (isEmulatorControlError(error)) {
    return {
      code: error.code,
      message: error.message,
      request_id: error.requestId ?? null,
      ...(Object.keys(error.details).length > 0 ? { details: error.details } : {}),
    };
  }
  if (isControlResponseError(error)) {
    return local('not_an_emulator', `${error.message}: this tool works against the Parley emulator`);
  }
  if (isMessageFailedError(error)) {
    return local('message_failed', error.message, { message: error.failedMessage });
  }
  if (isWaitForTimeoutError(error)) {
    return local('wait_timeout', error.message, error.lastSeen ? { last_seen: error.lastSeen } : undefined);
  }
  if (isAPIUserAbortError(error)) return local('cancelled', 'the call was cancelled');
  if (isConnectionError(error)) {
    const what = isTimeoutError(error) ? 'timed out' : 'could not connect';
    return local('network_error', `${what}: ${innermostCause(error).code ?? error.message}`);
  }
  if (isConfigurationError(error)) return local('config_error', error.message);
  if (isExitError(error)) {
    const { code, message, request_id, details } = error.body.error;
    return { code, message, request_id, ...(details ? { details } : {}) };
  }
  const cause = innermostCause(error);
  if (cause.code) return local('network_error', `could not connect: ${cause.code}`);
  return local('internal_error', scrubSecrets(error instanceof Error ? error.message : String(error)));
}

function local(code: string, message: string, details?: Record<string, unknown>): ToolError {
  return { code, message, request_id: null, ...(details ? { details } : {}) };
}

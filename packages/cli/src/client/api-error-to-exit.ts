import {
  type APIError,
  isAPIError,
  isConfigurationError,
  isConnectionError,
  isDailyLimitError,
  isRateLimitError,
  isTimeoutError,
} from '@parley/sdk';
import type { Credentials } from '../config/resolve-credentials';
import { EXIT, ExitError, isExitError } from '../exit-error';
import { innermostCause } from './innermost-cause';

/**
 * Turns an SDK error into the CLI's one-line message and exit code: 1 for an API answer, 3 for
 * configuration or network trouble. The line says what happened and what to do, with the
 * request id; `--json` gets the spec's error body. Other errors pass through unchanged.
 */
export function apiErrorToExit(error: unknown, credentials: Credentials): unknown {
  if (isExitError(error)) return error;
  if (isAPIError(error)) {
    const what = wireMessage(error).replace(/\.$/, '');
    const facts = `${error.status} ${error.code}${error.requestId ? `, request ${error.requestId}` : ''}`;
    return new ExitError(EXIT.api, `${what} (${facts})${hint(error, credentials)}`, {
      error: {
        code: error.code,
        message: wireMessage(error),
        request_id: error.requestId ?? null,
        details: error.details,
      },
    });
  }
  if (isConfigurationError(error)) {
    return withCode(EXIT.config, 'config_error', inCliWords(error.message, credentials));
  }
  if (isConnectionError(error)) {
    const what = isTimeoutError(error) ? 'timed out' : 'could not connect';
    return withCode(
      EXIT.config,
      'network_error',
      `${what} to ${credentials.baseUrl} (base URL from ${credentials.baseUrlSource}): ${causeOf(error)}. ` +
        'Check the URL, or start the emulator with `parley emulator start`',
    );
  }
  return error;
}

/**
 * The SDK's configuration message in the CLI's words: it names the SDK's options (`apiKey`,
 * `baseUrl`), which a CLI user never set, so the value is named by where it came from instead.
 */
function inCliWords(message: string, credentials: Credentials): string {
  const named = message
    .replace('`apiKey` / PARLEY_API_KEY', `the API key from ${credentials.apiKeySource}`)
    .replace('`baseUrl` / PARLEY_BASE_URL', `the base URL from ${credentials.baseUrlSource}`);
  return named === message ? `${message} (from ${credentials.apiKeySource})` : named;
}

function hint(error: APIError, credentials: Credentials): string {
  if (error.status === 401) {
    // A key from the profile already names it: say the profile once.
    const source = credentials.apiKeySource.startsWith('profile ')
      ? credentials.apiKeySource
      : `${credentials.apiKeySource} (profile "${credentials.profile}")`;
    return (
      `. The key came from ${source}: ` +
      `set PARLEY_API_KEY or run \`parley config set --profile ${credentials.profile} --api-key …\``
    );
  }
  if (isRateLimitError(error)) {
    const seconds = Math.ceil((error.retryAfter ?? (error.reset ?? 60) * 1000) / 1000);
    return `. Bucket ${error.bucket ?? 'requests'} is exhausted: retry in ${seconds} s`;
  }
  if (isDailyLimitError(error)) {
    const at = new Date(Date.now() + (error.retryAfter ?? 0)).toISOString();
    return `. Daily send cap reached: retry after ${at}`;
  }
  if (error.code === 'insufficient_scope') {
    return `. Use a key with scope ${String(error.details.required_scope ?? 'required')} (see \`parley status\`)`;
  }
  if (error.code === 'connection_inactive') return '. Pick an active one: `parley connections list`';
  if (error.code === 'sandbox_only') return '. Use a sandbox key (prl_sandbox_…)';
  return '';
}

/** The API's own message, without the SDK's "(status code, request id)" suffix. */
function wireMessage(error: APIError): string {
  return error.message.replace(/ \(\d{3} [^()]*\)$/, '');
}

// The SDK's ConnectionError wraps the attempt's NetworkError, which wraps fetch's TypeError, which
// wraps the socket error: the innermost error code (ECONNREFUSED, ENOTFOUND) says what happened.
function causeOf(error: Error): string {
  return innermostCause(error).code ?? error.message;
}

function withCode(code: typeof EXIT.config, wireCode: string, message: string): ExitError {
  return new ExitError(code, message, { error: { code: wireCode, message, request_id: null } });
}

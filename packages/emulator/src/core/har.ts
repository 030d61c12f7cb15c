import { STATUS_CODES } from 'node:http';
import { parseInstant } from '../domain/clock-range';
import { DomainError } from '../domain/domain-error';
import type { DeliveryRecord } from '../store/webhook-state';
import { WEBHOOK_USER_AGENT } from '../webhooks/_delivery-dispatcher';
import { type Exchange, exchangesOf } from './_exchange-ring';
import { maskSecrets } from './_mask-secrets';
import type { RequestActivity } from './activity-feed';
import type { EmulatorCore } from './emulator-core';
import type { HarEntry, HarLog, HarNameValue, HarOptions } from './har-types';

const JSON_TYPE = 'application/json';

/** Header pairs, every value (and name) masked: an `Authorization: Bearer prl_…` keeps its prefix only. */
function maskedHeaders(headers: Iterable<[string, string]>): HarNameValue[] {
  return [...headers].map(([name, value]) => ({ name: maskSecrets(name), value: maskSecrets(value) }));
}

function queryOf(url: URL): HarNameValue[] {
  return [...url.searchParams].map(([name, value]) => ({
    name: maskSecrets(name),
    value: maskSecrets(value),
  }));
}

const byteLength = (text: string) => Buffer.byteLength(text);

/** Checks `since` (ISO 8601) and `workspaceId` before anything is read. */
function checkedOptions(
  core: EmulatorCore,
  options: HarOptions,
): { since: number | undefined; workspaceId: string | undefined } {
  let since: number | undefined;
  if (options.since !== undefined) {
    since = typeof options.since === 'string' ? parseInstant(options.since) : undefined;
    if (since === undefined) {
      throw new DomainError('validation_error', '"since" must be an ISO 8601 time.', {
        field: 'since',
        reason: 'invalid_format',
      });
    }
  }
  const { workspaceId } = options;
  if (workspaceId !== undefined && (typeof workspaceId !== 'string' || !core.state.workspaces[workspaceId])) {
    throw new DomainError('not_found', `No workspace ${String(workspaceId)}.`, {
      workspace_id: String(workspaceId),
    });
  }
  return { since, workspaceId };
}

/**
 * The recent /v1 traffic as a HAR 1.2 log (`GET /_emulator/har`), oldest first: each kept exchange
 * (`_exchange-ring.ts`) with its headers and bodies, and with `deliveries` each webhook delivery
 * attempt as a request the emulator sent. API keys and signing secrets are masked wherever they
 * appear (the activity feed's masking); times are emulator times, in the caller's workspace's clock.
 */
export function buildHar(core: EmulatorCore, version: string, options: HarOptions = {}): HarLog {
  const { since, workspaceId } = checkedOptions(core, options);
  const inWorkspace = (applicationId: string | undefined) =>
    workspaceId === undefined ||
    (applicationId !== undefined && core.state.applications[applicationId]?.workspace_id === workspaceId);
  const timed: { at: number; entry: HarEntry }[] = [];
  for (const exchange of exchangesOf(core).list()) {
    // The call's activity item says whose it was and when, in its workspace's time.
    const activity = exchange.activity.item as RequestActivity;
    if (!inWorkspace(activity.application_ids[0])) continue;
    const at = Date.parse(activity.at);
    if (since !== undefined && at < since) continue;
    timed.push({ at, entry: exchangeEntry(exchange, activity, at) });
  }
  if (options.deliveries === true) {
    for (const delivery of Object.values(core.state.webhooks.deliveries)) {
      if (!inWorkspace(delivery.application_id)) continue;
      const url = core.state.webhooks.endpoints[delivery.endpoint_id]?.url;
      for (const attempt of delivery.attempts) {
        const at = Date.parse(attempt.at);
        if (since !== undefined && at < since) continue;
        timed.push({ at, entry: attemptEntry(delivery, attempt, url, at) });
      }
    }
  }
  timed.sort((a, b) => a.at - b.at);
  return {
    log: {
      version: '1.2',
      creator: { name: 'parley-emulator', version },
      entries: timed.map(({ entry }) => entry),
      comment: 'Parley emulator traffic; API keys and signing secrets masked. Times are emulator times.',
    },
  };
}

/**
 * The request's headers as the handler saw them: Node's raw list goes through `Headers` as srvx
 * builds `request.headers` from it (every pair appended, HTTP/2 pseudo-headers skipped), so the
 * HAR lists the same names, order and joined values.
 */
function requestHeadersOf(exchange: Exchange): Headers {
  const kept = exchange.requestHeaders;
  if (!Array.isArray(kept)) return kept as Headers;
  const headers = new Headers();
  for (let index = 0; index + 1 < kept.length; index += 2) {
    const name = kept[index]!;
    if (name.charCodeAt(0) === 58) continue;
    headers.append(name, kept[index + 1]!);
  }
  return headers;
}

function exchangeEntry(exchange: Exchange, activity: RequestActivity, at: number): HarEntry {
  const url = exchange.url;
  const requestBody = exchange.requestBody === undefined ? undefined : maskSecrets(exchange.requestBody);
  const responseBody = exchange.responseBody === undefined ? undefined : maskSecrets(exchange.responseBody);
  const responseHeaders = Object.entries(exchange.responseHeaders ?? {});
  return {
    startedDateTime: new Date(at).toISOString(),
    time: activity.duration_ms,
    request: {
      method: activity.method,
      url: maskSecrets(url.href),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: maskedHeaders(requestHeadersOf(exchange)),
      queryString: queryOf(url),
      ...(requestBody === undefined ? {} : { postData: { mimeType: JSON_TYPE, text: requestBody } }),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : byteLength(requestBody),
    },
    response: {
      status: exchange.status,
      statusText: STATUS_CODES[exchange.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: maskedHeaders(responseHeaders),
      content:
        responseBody === undefined
          ? { size: 0, mimeType: JSON_TYPE, comment: 'body not kept (an injected fault answered)' }
          : { size: byteLength(responseBody), mimeType: JSON_TYPE, text: responseBody },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseBody === undefined ? -1 : byteLength(responseBody),
    },
    cache: {},
    timings: { send: 0, wait: activity.duration_ms, receive: 0 },
  };
}

function attemptEntry(
  delivery: DeliveryRecord,
  attempt: DeliveryRecord['attempts'][number],
  url: string | undefined,
  at: number,
): HarEntry {
  const body = maskSecrets(delivery.body);
  const status = attempt.status_code ?? 0;
  return {
    startedDateTime: new Date(at).toISOString(),
    time: attempt.duration_ms,
    request: {
      method: 'POST',
      url: maskSecrets(url ?? 'http://endpoint.deleted.invalid/'),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        { name: 'content-type', value: JSON_TYPE },
        { name: 'user-agent', value: WEBHOOK_USER_AGENT },
        { name: 'parley-event-id', value: delivery.event_id },
      ],
      queryString: [],
      postData: { mimeType: JSON_TYPE, text: body },
      headersSize: -1,
      bodySize: byteLength(body),
    },
    response: {
      status,
      statusText: attempt.status_code === null ? '' : (STATUS_CODES[status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: {
        size: 0,
        mimeType: 'application/octet-stream',
        comment: "the receiver's answer is not kept",
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: attempt.duration_ms, receive: 0 },
    comment: [
      `webhook delivery ${delivery.id} attempt`,
      attempt.chaos ? `chaos copy (${attempt.chaos})` : '',
      attempt.error ? `error: ${maskSecrets(attempt.error)}` : '',
      'Parley-Timestamp and Parley-Signature are not kept',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

// What a tool answers: every typed error as {code, message, request_id} without a stack, and keys
// and signing secrets masked in every result but the one that creates a secret.

import { ControlResponseError, EmulatorControlError } from '@parley/emulator/control';
import {
  APIError,
  ConnectionError,
  type Message,
  MessageFailedError,
  WaitForTimeoutError,
} from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { ExitError } from '../exit-error';
import { scrubSecrets } from './_scrub-secrets';
import { toolError, toolFailure, toolResult } from './_tool-output';

const KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const LIVE = 'prl_live_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/=';

describe('scrubSecrets', () => {
  it('masks keys to their prefix and four characters, and secrets to whsec_…, wherever they are', () => {
    expect(scrubSecrets(`a ${KEY} b`)).toBe('a prl_sandbox_AbCd… b');
    expect(scrubSecrets(`x${LIVE}`)).toBe('xprl_live_ZyXw…');
    expect(scrubSecrets(`"${SECRET}"`)).toBe('"whsec_…"');
    expect(scrubSecrets(`${KEY}\n${SECRET}`)).toBe('prl_sandbox_AbCd…\nwhsec_…');
  });

  it('at the boundary: five characters after the prefix are masked, four (an already masked prefix) are left', () => {
    expect(scrubSecrets('prl_sandbox_AbCdE')).toBe('prl_sandbox_AbCd…');
    expect(scrubSecrets('prl_sandbox_AbCd…')).toBe('prl_sandbox_AbCd…');
    expect(scrubSecrets('whsec_A')).toBe('whsec_…');
    expect(scrubSecrets('whsec_')).toBe('whsec_');
  });
});

describe('toolResult', () => {
  it('is the data as structured content and as JSON text, masked', () => {
    const result = toolResult({ text: `key ${KEY}`, nested: [{ [SECRET]: SECRET }] });
    const shown = { text: 'key prl_sandbox_AbCd…', nested: [{ 'whsec_…': 'whsec_…' }] };
    expect(result).toEqual({
      structuredContent: shown,
      content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }],
    });
  });

  it('keeps the secret of the one answer that creates it', () => {
    expect(toolResult({ secret: SECRET }, true).structuredContent).toEqual({ secret: SECRET });
  });
});

describe('toolError', () => {
  it("is an API error's own fields: the message without the SDK's suffix, the request id, the details", () => {
    const error = new APIError({
      status: 404,
      code: 'not_found',
      message: 'No message m_1.',
      requestId: 'req_1',
      details: { message_id: 'm_1' },
      headers: new Headers(),
    });
    expect(toolError(error)).toEqual({
      code: 'not_found',
      message: 'No message m_1.',
      request_id: 'req_1',
      details: { message_id: 'm_1' },
    });
  });

  it("is the emulator's refusal as it gave it, and a non-emulator's answer as not_an_emulator", () => {
    expect(toolError(new EmulatorControlError(404, 'not_found', 'No endpoint e.', {}, 'req_2'))).toEqual({
      code: 'not_found',
      message: 'No endpoint e.',
      request_id: 'req_2',
    });
    const other = toolError(new ControlResponseError('not_json', 200, 'http://127.0.0.1:1/_emulator/clock'));
    expect(other).toMatchObject({ code: 'not_an_emulator', request_id: null });
  });

  it('names the SDK wait errors, the network, the CLI errors, and anything else without a stack', () => {
    const message = {
      id: 'm_1',
      status: 'failed',
      error: { code: 'recipient_unreachable', message: 'x' },
    } as Message;
    expect(toolError(new MessageFailedError(message))).toMatchObject({
      code: 'message_failed',
      details: { message },
    });
    expect(toolError(new WaitForTimeoutError('gave up', undefined))).toEqual({
      code: 'wait_timeout',
      message: 'gave up',
      request_id: null,
    });
    const refused = new ConnectionError('fetch failed', {
      cause: new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      }),
    });
    expect(toolError(refused)).toEqual({
      code: 'network_error',
      message: 'could not connect: ECONNREFUSED',
      request_id: null,
    });
    expect(toolError(new ExitError(3, 'no API key'))).toEqual({
      code: 'config_error',
      message: 'no API key',
      request_id: null,
    });
    const failure = toolFailure(new Error(`boom ${KEY}`));
    expect(failure.isError).toBe(true);
    expect(JSON.parse((failure.content[0] as { text: string }).text)).toEqual({
      error: { code: 'internal_error', message: 'boom prl_sandbox_AbCd…', request_id: null },
    });
    expect((failure.content[0] as { text: string }).text).not.toMatch(/\bat .*:\d+/);
  });
});

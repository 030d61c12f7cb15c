import { randomUUID } from 'node:crypto';
import type { Message, SendMessageParams } from '@parley/sdk';
import { type ApiSession, openApiSession } from '../../client/api-session';
import { allTemplates } from '../../client/connection-templates';
import { type EmulatorTarget, probeEmulator } from '../../client/emulator-probe';
import { FOLLOW_STATUSES, followMessage } from '../../client/follow-message';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { renderMessage } from '../../output/message-view';
import { positiveNumber } from '../_numbers';
import { defineCommand } from '../command-module';

/** `parley send` flags. */
export interface SendOptions extends ClientOptions {
  connection?: string;
  to?: string;
  template?: string;
  language?: string;
  var?: string[];
  text?: string;
  clientReference?: string;
  idempotencyKey?: string;
  /** `--wait` alone is `true` (delivered). */
  wait?: boolean | string;
  timeout?: string | number;
  interval?: string | number;
  /** With `wait`: move the emulator's clock until the message gets there, instead of waiting. */
  advance?: boolean;
}

/** Everything a send needs; the interactive flow fills in what the flags left out. */
export interface SendDraft {
  connection?: string;
  to?: string;
  template?: string;
  language?: string;
  variables: string[];
  text?: string;
}

/**
 * `POST /v1/messages`, then with `wait` follows the message. Missing arguments are asked for in
 * a terminal, and a usage error (exit 2) elsewhere. A generated idempotency key is printed on
 * stderr, so a failed send can be repeated safely with `--idempotency-key`.
 */
export async function send(options: SendOptions, context: CommandContext): Promise<Message> {
  if (options.text !== undefined && options.template !== undefined) {
    throw usageError('pass either --template or --text, not both');
  }
  const waitFor = waitStatus(options.wait);
  if (options.advance && !waitFor) {
    throw usageError("--advance moves the emulator's clock while --wait follows the message: add --wait");
  }
  let draft: SendDraft = { ...pickDraft(options), variables: options.var ?? [] };
  const api = await openApiSession(options, context);
  // Asked once, before anything is sent: whether --wait can end, and who moves the clock.
  const emulator = waitFor ? await probeBeforeSending(api, context) : undefined;
  if (options.advance && !emulator) {
    throw usageError(
      `--advance moves the emulator's clock, and ${new URL(api.credentials.baseUrl).origin} is not an emulator (it has no GET /_emulator/clock): use --wait alone`,
    );
  }
  // Said before anything is asked or sent when the recipient is known; after the questions if not.
  const neverRead = waitFor === 'read' && api.credentials.apiKey.startsWith('prl_sandbox_');
  const knownTo = draft.to;
  if (neverRead && knownTo) await refuseNeverRead(emulator, knownTo, context);
  // In a terminal, a template without --var is checked for variables to ask for.
  const mayAsk = missing(draft).length > 0 || (draft.template !== undefined && draft.variables.length === 0);
  if (mayAsk && context.interactive) {
    const { completeDraft } = await import('./_interactive');
    draft = await completeDraft(draft, api, context);
  }
  const stillMissing = missing(draft);
  if (stillMissing.length > 0) {
    throw usageError(
      `missing ${stillMissing.join(', ')}: e.g. parley send --connection <id> --to +33612345678 --template hello_world --language en (or --text "…")`,
    );
  }
  if (neverRead && !knownTo) await refuseNeverRead(emulator, draft.to!, context);
  if (draft.template && !draft.language) draft.language = await onlyLanguage(api, draft);
  const idempotencyKey = options.idempotencyKey ?? randomUUID();
  if (!options.idempotencyKey) {
    context.stderr.write(`${context.style.dim('Idempotency-Key:')} ${idempotencyKey}\n`);
  }
  const params = toParams(draft, options.clientReference);
  const message = await api.call((client) => client.messages.send(params, { idempotencyKey }));
  if (!waitFor) return message;
  return followMessage(
    api,
    message,
    {
      until: waitFor,
      timeoutMs: positiveNumber(options.timeout ?? 60, '--timeout') * 1000,
      intervalMs: positiveNumber(options.interval ?? 1000, '--interval'),
      advance: options.advance === true,
      emulator: emulator ?? null,
      offersAdvance: true,
    },
    context,
  );
}

/** The emulator behind the base URL, or null; Ctrl-C while asking is exit 130, nothing sent. */
async function probeBeforeSending(api: ApiSession, context: CommandContext): Promise<EmulatorTarget | null> {
  try {
    return (await probeEmulator(api, context)) ?? null;
  } catch (error) {
    if (context.signal.aborted) throw new ExitError(EXIT.interrupted, 'interrupted: nothing was sent');
    throw error;
  }
}

/**
 * Sandbox messages stop at delivered and are never read, but for the emulator's magic recipient
 * that is read (`parley emulator magic-numbers`): --wait read is refused before the send unless
 * the recipient is that one.
 */
async function refuseNeverRead(
  emulator: EmulatorTarget | null | undefined,
  to: string,
  context: CommandContext,
): Promise<void> {
  const behaviour = await emulator?.magicBehaviour(to).catch((error: unknown) => {
    if (context.signal.aborted) throw new ExitError(EXIT.interrupted, 'interrupted: nothing was sent');
    throw error;
  });
  if (behaviour === 'read') return;
  throw usageError(
    'sandbox messages stop at delivered and are never read, so --wait read would only time out: use --wait delivered',
  );
}

function pickDraft(options: SendOptions): Omit<SendDraft, 'variables'> {
  const draft: Omit<SendDraft, 'variables'> = {};
  if (options.connection) draft.connection = options.connection;
  if (options.to) draft.to = options.to;
  if (options.template) draft.template = options.template;
  if (options.language) draft.language = options.language;
  if (options.text !== undefined) draft.text = options.text;
  return draft;
}

/** Flags still needed before the send can go out. */
export function missing(draft: SendDraft): string[] {
  const names: string[] = [];
  if (!draft.connection) names.push('--connection');
  if (!draft.to) names.push('--to');
  if (draft.template === undefined && draft.text === undefined) names.push('--template or --text');
  return names;
}

function waitStatus(wait: SendOptions['wait']): (typeof FOLLOW_STATUSES)[number] | undefined {
  if (wait === undefined || wait === false) return undefined;
  if (wait === true) return 'delivered';
  if ((FOLLOW_STATUSES as readonly string[]).includes(wait)) return wait as (typeof FOLLOW_STATUSES)[number];
  throw usageError(`--wait takes one of ${FOLLOW_STATUSES.join(', ')}, got "${wait}"`);
}

/** Without --language, the template's language when the connection has it in exactly one. */
async function onlyLanguage(api: ApiSession, draft: SendDraft): Promise<string> {
  const templates = await allTemplates(api, draft.connection!);
  const languages = templates.filter((template) => template.name === draft.template).map((t) => t.language);
  if (languages.length === 1) return languages[0]!;
  if (languages.length === 0) {
    throw usageError(
      `no template "${draft.template}" on connection ${draft.connection}: see \`parley templates list --connection ${draft.connection}\``,
    );
  }
  throw usageError(`template "${draft.template}" exists in ${languages.join(', ')}: pass --language`);
}

function toParams(draft: SendDraft, clientReference: string | undefined): SendMessageParams {
  const base = {
    connection_id: draft.connection!,
    to: draft.to!,
    ...(clientReference ? { client_reference: clientReference } : {}),
  };
  if (draft.text !== undefined) return { ...base, type: 'text', text: draft.text };
  return {
    ...base,
    type: 'template',
    template: { name: draft.template!, language: draft.language!, variables: draft.variables },
  };
}

export default defineCommand({
  run: send,
  render: (message, { style }) => renderMessage(style, message),
  longRunning: true,
});

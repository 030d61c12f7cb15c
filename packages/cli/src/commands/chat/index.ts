import { createInterface } from 'node:readline';
import {
  type ConversationItem,
  createControlClient,
  type EmulatorControl,
  isEmulatorControlError,
} from '@parley/emulator/control';
import { isPhoneNumber } from '@parley/sdk';
import { followActivity } from '../../client/activity-stream';
import { openApiSession } from '../../client/api-session';
import { resolveBaseUrl } from '../../config/resolve-base-url';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { terminalSafe, terminalSafeJson } from '../../output/terminal-safe';
import { defineCommand } from '../command-module';
import { changedItems, chatLine } from './_chat-lines';

/** `parley chat` flags. */
export interface ChatOptions extends ClientOptions {
  connection?: string;
  from?: string;
  /** The application (default: the API key's). */
  app?: string;
}

/** How a chat ended: stdin closed (exit 0) or Ctrl-C (exit 130). */
export interface ChatSummary {
  ended: 'input_closed' | 'interrupted';
}

// A stopped emulator must not hang the chat.
const TIMEOUT_MS = 5_000;

/**
 * Plays the customer in the terminal: each line typed (or read from stdin) is a message from
 * `--from` to the connection (`messageAsCustomer`: inbound on a live application, a synthetic
 * `message.received` in the sandbox); the thread's messages and the app's replies, with their
 * statuses, are printed as they happen, the activity stream telling when to look again (nothing
 * polls). `--json` prints each new or changed message as a JSON line.
 */
export async function chat(options: ChatOptions, context: CommandContext): Promise<ChatSummary> {
  const connectionId = options.connection;
  if (!connectionId)
    throw usageError('missing --connection: pass the connection id (parley connections list)');
  if (options.from === undefined && !context.interactive) {
    throw usageError(
      'missing --from: pass the customer number, e.g. --from +33612345678 (needed without a terminal)',
    );
  }
  const lines = createInterface({
    input: process.stdin,
    ...(context.interactive ? { output: process.stdout, terminal: true } : { terminal: false }),
  });
  const typed = typedLines(lines);
  try {
    const from = options.from ?? (await typed.next('Customer number (e.g. +33612345678): '));
    if (!isPhoneNumber(from)) {
      throw usageError(`--from "${terminalSafe(from)}" is not a number: a + followed by 8 to 15 digits`);
    }
    const appId = options.app ?? (await keyApplication(options, context));
    const { baseUrl } = await resolveBaseUrl(options, context.env);
    const origin = new URL(baseUrl).origin;
    const fetchFunction = context.fetch ?? ((request: Request) => fetch(request));
    const client = createControlClient({ baseUrl: origin, fetch: fetchFunction, timeoutMs: TIMEOUT_MS });
    return await converse(
      { client, appId, connectionId, from, origin, fetchFunction, lines, typed },
      context,
    );
  } finally {
    lines.close();
  }
}

interface Conversation {
  client: EmulatorControl;
  appId: string;
  connectionId: string;
  from: string;
  origin: string;
  fetchFunction: (request: Request) => Promise<Response>;
  lines: ReturnType<typeof createInterface>;
  typed: TypedLines;
}

async function converse(chatWith: Conversation, context: CommandContext): Promise<ChatSummary> {
  const { client, appId, connectionId, from, lines } = chatWith;
  const prompt = `${from}> `;
  lines.setPrompt(prompt);
  // Lines printed while the prompt is shown go above it, the prompt and what was typed redrawn.
  const print = (text: string) => {
    if (context.interactive) {
      context.stdout.write(`\r\u001b[K${text}\n`);
      lines.prompt(true);
    } else context.stdout.write(`${text}\n`);
  };
  const notice = (text: string) => (context.json ? context.stderr.write(`${text}\n`) : print(text));
  const seen = new Map<string, string>();
  const show = (item: ConversationItem) =>
    print(context.json ? terminalSafeJson({ kind: 'message', ...item }) : chatLine(item, context.style));
  // One look at the thread at a time, in order: a burst of stream items makes at most one more.
  let looking: Promise<void> = Promise.resolve();
  let again = false;
  const look = () => {
    if (again) return looking;
    again = true;
    looking = looking.then(async () => {
      again = false;
      const view = await controlCall(chatWith.origin, () =>
        client.getConversation(appId, { connectionId, number: from }),
      );
      for (const item of changedItems(view.items, seen)) show(item);
    });
    return looking;
  };

  const view = await controlCall(chatWith.origin, () =>
    client.getConversation(appId, { connectionId, number: from }),
  );
  const window = view.window
    ? view.window.open
      ? `, its 24 h window open until ${view.window.expires_at}`
      : ', its 24 h window closed (the first message opens it)'
    : '';
  notice(
    `Chat as ${from} with ${terminalSafe(view.connection.name)} (${terminalSafe(view.connection.phone_number)})${window}: type a message and press Enter (Ctrl-C to stop)`,
  );
  for (const item of changedItems(view.items, seen)) show(item);

  const stop = new AbortController();
  const signal = AbortSignal.any([context.signal, stop.signal]);
  // In a terminal, readline takes Ctrl-C itself: it is the same stop as a SIGINT (exit 130).
  let interrupted = false;
  lines.on('SIGINT', () => {
    interrupted = true;
    stop.abort();
  });
  // Each typed line is sent in order; what was typed (or piped) before now was queued.
  let sending: Promise<void> = Promise.resolve();
  const send = (typed: string) => {
    const text = typed.trim();
    if (text === '') {
      if (context.interactive) lines.prompt();
      return;
    }
    sending = sending.then(async () => {
      try {
        await client.messageAsCustomer(appId, { connection_id: connectionId, from, text });
        await look();
      } catch (error) {
        context.stderr.write(`${errorLine(error)}\n`);
        if (context.interactive) lines.prompt(true);
      }
    });
  };
  chatWith.typed.onLine(send);
  // At the end of the input, what was typed is sent and its answers printed before stopping.
  chatWith.typed.onClose(() => void sending.then(() => look()).finally(() => stop.abort()));
  if (context.interactive) lines.prompt();
  const items = followActivity({ origin: chatWith.origin, fetch: chatWith.fetchFunction, signal });
  for await (const item of items) {
    const ours = item.application_ids.includes(appId) || item.kind === 'clock' || item.kind === 'reset';
    if (ours) await look().catch((error: unknown) => context.stderr.write(`${errorLine(error)}\n`));
  }
  await looking.catch(() => undefined);
  return { ended: context.signal.aborted || interrupted ? 'interrupted' : 'input_closed' };
}

/** The input's lines, none lost: those that came before anyone listened are kept for the first. */
interface TypedLines {
  /** The next line, after showing `question` in a terminal. */
  next(question: string): Promise<string>;
  onLine(listener: (line: string) => void): void;
  onClose(listener: () => void): void;
}

function typedLines(lines: ReturnType<typeof createInterface>): TypedLines {
  const queued: string[] = [];
  let listener: ((line: string) => void) | undefined;
  let closed = false;
  let onClose: (() => void) | undefined;
  lines.on('line', (line) => (listener ? listener(line) : queued.push(line)));
  lines.on('close', () => {
    closed = true;
    onClose?.();
  });
  return {
    next: (question) => {
      const ready = queued.shift();
      if (ready !== undefined) return Promise.resolve(ready.trim());
      lines.setPrompt(question);
      lines.prompt();
      return new Promise((resolve) => {
        listener = (line) => {
          listener = undefined;
          resolve(line.trim());
        };
      });
    },
    onLine: (next) => {
      listener = next;
      for (const line of queued.splice(0)) next(line);
    },
    onClose: (next) => {
      onClose = next;
      if (closed) next();
    },
  };
}

/** The application of the configured API key (`GET /v1/status`). */
async function keyApplication(options: ChatOptions, context: CommandContext): Promise<string> {
  const api = await openApiSession(options, context);
  return (await api.call((client) => client.status.get())).application_id;
}

/** A control call whose failure ends the chat: refused (exit 1) or no emulator there (exit 3). */
async function controlCall<Answer>(origin: string, run: () => Promise<Answer>): Promise<Answer> {
  try {
    return await run();
  } catch (error) {
    if (isEmulatorControlError(error)) throw new ExitError(EXIT.api, errorLine(error));
    throw new ExitError(
      EXIT.config,
      `no Parley emulator answered at ${origin}: parley chat needs one (${errorLine(error)})`,
    );
  }
}

function errorLine(error: unknown): string {
  if (isEmulatorControlError(error))
    return `the emulator refused: ${terminalSafe(error.message)} (${error.code})`;
  return terminalSafe(error instanceof Error ? error.message : String(error));
}

export default defineCommand({
  run: chat,
  longRunning: true,
  // Every line went out as it came.
  render: () => '',
  json: () => undefined,
  exitCode: (summary) => (summary.ended === 'interrupted' ? EXIT.interrupted : EXIT.ok),
});

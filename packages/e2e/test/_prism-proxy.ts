import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { expect } from 'vitest';

// Prism (a root devDependency) checks real answers against an OpenAPI description: a validator
// nobody here wrote, so a description and an emulator that share a mistake cannot both pass.
const PRISM_CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli');
/** What is kept of Prism's log for a failure message: its end. */
const LOG_TAIL_CHARS = 64 * 1024;
const START_TIMEOUT_MS = 60_000;

/** One violation Prism found, as its `sl-violations` header lists them. */
export interface PrismViolation {
  /** `request` or `response`, then where: `body`, `ms` or `query`, `limit`… */
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** A running `prism proxy`. */
export interface PrismProxy {
  /** `http://127.0.0.1:<port>`: a request to `url + path` goes to the upstream's base URL + path. */
  url: string;
  /** The end of what Prism printed. */
  log(): string;
  /** Stops the process and waits for its exit. */
  close(): Promise<void>;
}

/** Options of {@link startPrismProxy}. */
export interface PrismProxyOptions {
  /** Path of the OpenAPI file (its relative `$ref`s are read beside it). */
  document: string;
  /** Base URL the described paths are under, on loopback, e.g. `http://127.0.0.1:4010/_emulator`. */
  upstream: string;
  /**
   * `true` (`--errors`): a request that breaks the description is answered 422 by Prism and not
   * forwarded, an answer that breaks it becomes Prism's 500. `false`: everything is forwarded and
   * answered as the upstream answered, every violation listed in the `sl-violations` header.
   */
  errors: boolean;
}

/**
 * Starts `prism proxy DOCUMENT UPSTREAM` on 127.0.0.1 (a free port) and waits until it listens.
 * It reads only the local document and calls only the upstream.
 *
 * @example
 * const prism = await startPrismProxy({ document, upstream: `${server.url}/_emulator`, errors: true });
 * await fetch(`${prism.url}/health`);
 */
export async function startPrismProxy(options: PrismProxyOptions): Promise<PrismProxy> {
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(options.upstream)) {
    throw new Error(`Prism may only call loopback: ${options.upstream}`);
  }
  const child = spawn(
    process.execPath,
    [
      PRISM_CLI,
      'proxy',
      options.document,
      options.upstream,
      `--errors=${options.errors}`,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      // Answers stay exactly the upstream's: no CORS headers added, no preflight answered.
      '--cors=false',
    ],
    { env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const append = (chunk: string) => {
    log = (log + chunk).slice(-LOG_TAIL_CHARS);
  };
  child.stdout!.setEncoding('utf8').on('data', append);
  child.stderr!.setEncoding('utf8').on('data', append);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);
  try {
    const url = await listening(child, () => log);
    return {
      url,
      log: () => log,
      close: async () => {
        process.off('exit', stopOnExit);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
}

/** Resolves with Prism's URL once it says it listens (its log line names the port it got). */
function listening(child: ChildProcess, log: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(`did not listen within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const onData = (chunk: string) => {
      seen = (seen + chunk).slice(-4096);
      const match = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) done(() => resolve(match[1]!));
    };
    const onClose = (code: number | null) => fail(`exited with ${code} before listening`);
    const done = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('close', onClose);
      settle();
    };
    const fail = (why: string) => done(() => reject(new Error(`prism proxy ${why}:\n${log()}`)));
    child.stdout!.on('data', onData);
    child.once('close', onClose);
  });
}

/** The violations Prism listed on an answer (none: `[]`); a list it cut short is one violation. */
export function violationsOf(response: Response): PrismViolation[] {
  const header = response.headers.get('sl-violations');
  if (header === null) return [];
  try {
    return JSON.parse(header) as PrismViolation[];
  } catch {
    return [{ location: ['unreadable'], severity: 'Error', code: 'sl-violations', message: header }];
  }
}

/** Whether Prism answered itself (a refused request, a refused answer, no such route): problem+json. */
export function isPrismProblem(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
}

/**
 * Where a request must break the description: a place such as `body.ms` or `query.limit` that must
 * be among the request's violations, `*` for anywhere, `null` for nowhere, `unchecked` when the
 * request does not matter (a call refused before anything of it is read).
 */
export type RequestViolation = string | null;

/**
 * Asserts what Prism saw of one exchange (`text` is the answer's body): it answered nothing itself,
 * the answer breaks nothing in the description, and the request breaks it exactly as `expected`.
 */
export function expectPrismSaw(
  response: Response,
  text: string,
  expected: RequestViolation,
  label: string,
): void {
  expect(isPrismProblem(response), `${label}: Prism answered itself ${response.status}: ${text}`).toBe(false);
  const violations = violationsOf(response);
  expect(
    violations.filter((violation) => violation.location[0] !== 'request'),
    `${label}: the answer ${response.status} breaks the description: ${text.slice(0, 500)}`,
  ).toEqual([]);
  const places = violations.map((violation) => violation.location.slice(1).join('.'));
  if (expected === null) expect(places, `${label}: the request breaks the description`).toEqual([]);
  else if (expected === '*') expect(places, `${label}: the description takes it`).not.toEqual([]);
  else if (expected !== 'unchecked') expect(places, `${label}: the description takes it`).toContain(expected);
}

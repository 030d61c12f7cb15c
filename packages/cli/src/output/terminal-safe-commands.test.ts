// Every printing command as a process against a server whose strings carry a title change, a
// screen clear, an 8-bit CSI and a right-to-left override: nothing of them reaches the terminal
// raw. NO_COLOR is set, so any control character at all in the output (a line feed aside) is one
// that came from the server.

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, signWebhook } from '@parley/sdk';
import {
  assertCliBuilt,
  CLI_PATH,
  cliEnv,
  type HostileApi,
  MISSING_MESSAGE_ID,
  REFUSED_TEXT,
  runCli,
  startCli,
  startHostileApi,
  TEST_SECRET,
} from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e';
/** HOSTILE as the CLI prints it. */
const SHOWN = '\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e';
/** HOSTILE as an HTTP header carries it: printable ASCII and C1 only. */
const SHOWN_IN_HEADER = ']0;pwned[2J\\u009b31m';
// Written here rather than imported: the test holds its own idea of what must not get through.
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Stands for the hostile server's receiver URL, known once it listens. */
const RECEIVER_URL = '<receiver>';
const UUID = '3f1c0e9a-8b2d-4c7e-9f10-2a3b4c5d6e7f';
const KEY = 'prl_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

let api: HostileApi;
let home: string;
let env: Record<string, string>;
beforeAll(async () => {
  assertCliBuilt();
  api = await startHostileApi((field) => `${field}${HOSTILE}`);
  home = await mkdtemp(join(tmpdir(), 'parley-terminal-safe-'));
  env = { PARLEY_API_KEY: KEY, PARLEY_BASE_URL: api.baseUrl, XDG_CONFIG_HOME: home, NO_COLOR: '1' };
});
afterAll(async () => {
  await api?.close();
  await rm(home, { recursive: true, force: true });
});

/** The first control character of `output` and what surrounds it, or undefined when there is none. */
function firstControl(output: string): string | undefined {
  const at = output.search(CONTROL);
  return at === -1 ? undefined : JSON.stringify(output.slice(Math.max(0, at - 40), at + 20));
}

// [arguments, exit code, what the output must show: the server's field, escaped]
const COMMANDS: [string[], number, string][] = [
  [['status'], 0, `status.application_id${SHOWN}`],
  [['status', '--verbose'], 0, `requestId="x-request-id${SHOWN_IN_HEADER}" status=200`],
  [['connections', 'list'], 0, `connection.name${SHOWN}`],
  [['templates', 'list', '--connection', UUID], 0, `template.body${SHOWN}`],
  [['messages', 'get', UUID], 0, `message.error.message${SHOWN}`],
  [['messages', 'get', UUID, '--watch'], 0, `message.id${SHOWN} message.status${SHOWN}`],
  [['messages', 'get', MISSING_MESSAGE_ID], 1, `not_found.message${SHOWN} (404 not_found.code${SHOWN}`],
  [
    ['send', '--connection', UUID, '--to', '+33612345678', '--text', 'hi', '--wait'],
    0,
    `message.id${SHOWN} message.status${SHOWN}`,
  ],
  [
    ['send', '--connection', UUID, '--to', '+33612345678', '--text', REFUSED_TEXT],
    1,
    `validation_error.message${SHOWN}`,
  ],
  [['trigger', 'webhook.test'], 0, `Queued sandbox_event.type${SHOWN} sandbox_event.id${SHOWN}`],
  [['emulator', 'status'], 0, `health.count${SHOWN}  3`],
  [['emulator', 'clock'], 0, `clock.now${SHOWN} (real`],
  [['emulator', 'clock', '--workspace', UUID], 0, `clock.now${SHOWN} (its own clock`],
  [['emulator', 'clock', 'advance', '5s'], 0, `now clock.now${SHOWN}`],
  [['emulator', 'faults', 'list'], 0, `fault.id${SHOWN}  fault.method${SHOWN} fault.path${SHOWN}`],
  [['emulator', 'faults', 'add', '--drop'], 0, `Fault added: fault.id${SHOWN}`],
  [['emulator', 'faults', 'clear', UUID], 1, `fault.message${SHOWN} (fault.code${SHOWN})`],
  [['emulator', 'magic-numbers'], 0, `magic.description${SHOWN}`],
  [['emulator', 'chaos', UUID], 0, `Applied so far: chaos.applied${SHOWN} 2`],
  [
    ['webhooks', 'doctor', RECEIVER_URL, '--secret', TEST_SECRET],
    1,
    `outcome receiver.outcome${SHOWN_IN_HEADER}`,
  ],
];

describe('no server string reaches the terminal raw', () => {
  it.each(COMMANDS.map(([args, code, shown]) => [args.join(' '), args, code, shown] as const))(
    'parley %s',
    async (_name, args, code, shown) => {
      const resolved = args.map((arg) => (arg === RECEIVER_URL ? api.receiverUrl : arg));
      const result = await runCli(resolved, env);
      const output = result.stdout + result.stderr;
      expect(firstControl(output)).toBeUndefined();
      expect(output).toContain(shown);
      expect(result.code).toBe(code);
    },
  );

  it('parley emulator status shows the counts "constructor" and "__proto__" under their own names', async () => {
    const { stdout, code } = await runCli(['emulator', 'status'], env);
    expect(code).toBe(0);
    const width = `health.count${SHOWN}`.length;
    expect(stdout.split('\n').filter((line) => /^(constructor|__proto__|health\.count)/.test(line))).toEqual([
      `${'constructor'.padEnd(width)}  1`,
      `${'__proto__'.padEnd(width)}  2`,
      `health.count${SHOWN}  3`,
    ]);
  });

  it('parley config list: names, keys and base URLs of a hand-written file', async () => {
    const configHome = join(home, 'config-list');
    await mkdir(join(configHome, 'parley'), { recursive: true });
    await writeFile(
      join(configHome, 'parley', 'config.json'),
      JSON.stringify({
        current_profile: 'default',
        profiles: {
          default: { api_key: `prl_sandbox_AbCdEfGhIjKlMn${HOSTILE}`, base_url: `http://x/${HOSTILE}` },
        },
      }),
    );
    const { stdout, stderr, code } = await runCli(['config', 'list'], {
      ...env,
      XDG_CONFIG_HOME: configHome,
    });
    expect(firstControl(stdout + stderr)).toBeUndefined();
    expect(stdout).toContain(`http://x/${SHOWN}`);
    expect(code).toBe(0);
  });

  it('parley webhooks verify: the fields of a captured delivery', async () => {
    const dir = await mkdtemp(join(home, 'verify-'));
    const event = {
      api_version: '2026-10-14',
      created_at: `created${HOSTILE}`,
      data: { message: 'hi' },
      id: `evt_${HOSTILE}`,
      livemode: false,
      type: `type${HOSTILE}`,
    };
    const body = canonicalJson(event);
    const headers = await signWebhook({ payload: body, secret: TEST_SECRET, id: event.id });
    await writeFile(join(dir, 'body.json'), body);
    await writeFile(join(dir, 'headers.json'), JSON.stringify(headers));
    const args = ['webhooks', 'verify', '--secret', TEST_SECRET, '--body', join(dir, 'body.json')];
    const { stdout, stderr, code } = await runCli([...args, '--headers', join(dir, 'headers.json')], env);
    expect(firstControl(stdout + stderr)).toBeUndefined();
    expect(stdout + stderr).toContain(`type${SHOWN}`);
    expect(code).toBe(0);
  });

  it('parley webhooks sign: a body with control characters prints escaped, with a warning; CRLF stays', async () => {
    const dir = await mkdtemp(join(home, 'sign-'));
    await writeFile(join(dir, 'hostile.json'), `{"id":"evt_1","note":"${HOSTILE}"}`);
    await writeFile(join(dir, 'crlf.json'), '{\r\n\t"id": "evt_1"\r\n}');
    const sign = (file: string) =>
      runCli(['webhooks', 'sign', '--secret', TEST_SECRET, '--id', 'evt_1', '--body', join(dir, file)], env);
    const hostile = await sign('hostile.json');
    expect(firstControl(hostile.stdout + hostile.stderr)).toBeUndefined();
    expect(hostile.stdout).toContain(
      `--data-binary '{"id":"evt_1","note":"${SHOWN}"}'\n# The body holds control characters`,
    );
    expect(hostile.code).toBe(0);
    const crlf = await sign('crlf.json');
    expect(crlf.stdout).toContain(`--data-binary '{\r\n\t"id": "evt_1"\r\n}'\n`);
    expect(crlf.stdout).not.toContain('# The body holds');
    expect(crlf.code).toBe(0);
  });

  it('parley logs tail: every field of every kind of item, and an unknown kind', async () => {
    const tail = startCli(['logs', 'tail'], env);
    await tail.waitFor(`note${SHOWN}`);
    tail.child.kill('SIGINT');
    const { stdout, stderr, code } = await tail.exited;
    expect(firstControl(stdout + stderr)).toBeUndefined();
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(7);
    for (const field of ['request.request_id', 'control.path', 'event.id', 'message.to', 'delivery.error']) {
      expect(stdout).toContain(`${field}${SHOWN}`);
    }
    expect(lines[6]).toContain(`"kind":"activity.kind\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e"`);
    expect(code).toBe(130);
  });

  it('parley logs tail --json: C1 and bidi characters written as \\u escapes too', async () => {
    const tail = startCli(['logs', 'tail', '--json'], env);
    await tail.waitFor('activity.note');
    tail.child.kill('SIGINT');
    const { stdout, stderr, code } = await tail.exited;
    expect(firstControl(stdout + stderr)).toBeUndefined();
    const items = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(items.at(-1)).toMatchObject({ note: `activity.note${HOSTILE}` });
    expect(code).toBe(130);
  });

  it('parley listen: the ready line, a verified delivery, a refused one and the app answer', async () => {
    const listen = startCli(['listen', '--forward-to', api.appUrl], env);
    const endpoint = await api.nextEndpoint();
    await listen.waitFor('Ready!');
    // Valid signature: the event's own type is printed.
    const event = {
      api_version: '2026-10-14',
      created_at: '2026-10-14T09:30:05Z',
      data: {},
      id: 'evt_1',
      livemode: false,
      type: `type${HOSTILE}`,
    };
    const body = canonicalJson(event);
    const signed = await signWebhook({ payload: body, secret: endpoint.secret, id: event.id });
    expect(await post(endpoint.url, body, signed)).toBe(400);
    // No signature: the id comes from the header, which carries C1 bytes.
    expect(await post(endpoint.url, body, { 'parley-event-id': 'evt_\u009b[2J' })).toBe(400);
    await listen.waitFor('missing_header');
    listen.child.kill('SIGINT');
    const { stdout, stderr, code } = await listen.exited;
    expect(firstControl(stdout + stderr)).toBeUndefined();
    expect(stdout).toContain(`Forwarding endpoint.event${SHOWN} to ${api.appUrl}`);
    expect(stdout).toContain(`(endpoint endpoint.id${SHOWN})`);
    expect(stdout).toMatch(/unverified {2}evt_\S*\\u009b\[2J {2}✗ missing_header/);
    expect(code).toBe(0);
    expect(stdout).toContain(`type${SHOWN}  evt_1  ✓ verified`);
  });

  it('parley send asking in a terminal: the connections offered', async () => {
    // `script` gives the CLI a pseudo-terminal; the prompt's own cursor moves are escapes, so
    // this looks for the server's sequences only.
    const command = [process.execPath, CLI_PATH, 'send', '--to', '+33612345678', '--text', 'hi']
      .map((part) => `'${part}'`)
      .join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...cliEnv(env), TERM: 'xterm-256color' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => {
        if (output.includes(`connection.id${SHOWN}`)) resolve();
      });
      child.on('close', () => reject(new Error(`script ended before the prompt:\n${output}`)));
    });
    child.kill('SIGTERM');
    for (const sequence of ['\x1b]0;pwned', '\x1b[2J', '\u009b', '\u202e', '\x07']) {
      expect(output).not.toContain(sequence);
    }
    expect(output).toContain(`connection.name${SHOWN}`);
  });
});

/** POSTs a delivery to `parley listen`'s listener; resolves with its status. */
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
    });
    sent.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Runs the BUILT package in fresh Node processes, as users get it (root `pnpm test` builds first).
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

function run(kind: 'esm' | 'cjs', code: string): Record<string, unknown> {
  if (!existsSync(dist('index.js'))) throw new Error('packages/sdk/dist is missing: run `pnpm build` first');
  const output = execFileSync(
    process.execPath,
    [`--input-type=${kind === 'esm' ? 'module' : 'commonjs'}`, '-e', code],
    {
      cwd: packageDir,
      encoding: 'utf8',
      env: { ...process.env, PARLEY_API_KEY: '', PARLEY_BASE_URL: '' },
    },
  );
  return JSON.parse(output) as Record<string, unknown>;
}

// The script body: sign, verify, reject a tampered body, and make one client call through a stub fetch.
const exercise = (sdk: string, webhooks: string) => `
  const secret = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
  const payload = JSON.stringify({ id: 'evt_0123456789abcdef0123456789abcdef', type: 'webhook.test', data: { message: 'é' } });
  const headers = await ${webhooks}.signWebhook({ payload, secret, id: 'evt_0123456789abcdef0123456789abcdef' });
  const event = await ${webhooks}.verifyWebhook(new TextEncoder().encode(payload), headers, secret);
  const tampered = await ${webhooks}.verifyWebhook(payload + ' ', headers, secret).catch((error) => error);
  const parley = new ${sdk}.Parley({
    apiKey: 'prl_sandbox_0123456789abcdefghijABCDEFGHIJkl',
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      return Response.json({ error: { code: 'not_found', message: 'No such message', request_id: 'req_1' } }, { status: 404 });
    },
  });
  const notFound = await parley.messages.get('m1').catch((error) => error);
  console.log(JSON.stringify({
    type: event.type,
    tamperedReason: tampered.reason,
    tamperedGuard: ${webhooks}.isWebhookVerificationError(tampered),
    notFound: notFound.name,
    notFoundGuard: ${sdk}.isNotFoundError(notFound),
  }));
`;

const expected = {
  type: 'webhook.test',
  tamperedReason: 'signature_mismatch',
  tamperedGuard: true,
  notFound: 'NotFoundError',
  notFoundGuard: true,
};

// One traced call through a structural tracer (no OpenTelemetry package): the telemetry code is a
// lazy chunk in the ESM builds and inlined in the CJS ones; each must load it and send traceparent.
const traced = (sdk: string) => `
  const spans = [];
  const tracer = {
    startSpan(name, options, context) {
      const spanId = String(spans.length + 1).padStart(16, '0');
      const parent = context?.getValue(Symbol.for('OpenTelemetry Context Key SPAN'));
      const span = {
        name, kind: options.kind, parent: parent ? parent.spanContext().spanId : null, ended: false,
        spanContext: () => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId, traceFlags: 1 }),
        setAttribute() {}, setAttributes() {}, setStatus() {}, recordException() {}, updateName() {},
        end() { span.ended = true; },
      };
      spans.push(span);
      return span;
    },
    startActiveSpan(name, options, run) { return run(this.startSpan(name, options)); },
  };
  let traceparent;
  const parley = new ${sdk}.Parley({
    apiKey: 'prl_sandbox_0123456789abcdefghijABCDEFGHIJkl',
    baseUrl: 'http://127.0.0.1:4010/v1',
    tracer,
    fetch: async (input, init) => {
      traceparent = new Request(input, init).headers.get('traceparent');
      return Response.json({ application_id: 'app_1' });
    },
  });
  await parley.status.get();
  console.log(JSON.stringify({ traceparent, spans: spans.map(({ name, kind, parent, ended }) => [name, kind, parent, ended]) }));
`;

const tracedCall = {
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000002-01',
  spans: [
    ['GET /v1/status', 2, null, true],
    ['GET /v1/status', 2, '0000000000000001', true],
  ],
};

describe('built dist with a tracer', () => {
  it.each([
    ['ESM, node condition', 'esm', `const sdk = await import('@parley/sdk'); ${traced('sdk')}`],
    [
      'ESM, default build',
      'esm',
      `const sdk = await import(${JSON.stringify(dist('index.js'))}); ${traced('sdk')}`,
    ],
    [
      'CJS, node condition',
      'cjs',
      `(async () => { const sdk = require('@parley/sdk'); ${traced('sdk')} })();`,
    ],
  ] as const)(
    '%s: loads the telemetry code, makes the call and attempt spans, sends traceparent',
    (_name, kind, code) => {
      expect(run(kind, code)).toEqual(tracedCall);
    },
  );
});

describe('built dist', () => {
  it('ESM under the node condition resolves to dist/node and works', () => {
    const result = run(
      'esm',
      `const sdk = await import('@parley/sdk'); const webhooks = await import('@parley/sdk/webhooks');
       const resolved = [import.meta.resolve('@parley/sdk'), import.meta.resolve('@parley/sdk/webhooks')];
       ${exercise('sdk', 'webhooks').replace('console.log(JSON.stringify({', 'console.log(JSON.stringify({ resolved,')}`,
    );
    expect(result).toMatchObject(expected);
    expect(result.resolved).toEqual([
      expect.stringMatching(/dist\/node\/index\.js$/),
      expect.stringMatching(/dist\/node\/webhooks\.js$/),
    ]);
  });

  it('CJS under the node condition resolves to dist/node and the webhooks entry loads no other module', () => {
    const result = run(
      'cjs',
      `(async () => {
        const webhooks = require('@parley/sdk/webhooks');
        // A receiver pays for its own entry only: not the client's code, not a dependency.
        const loadedByWebhooks = Object.keys(require.cache).map((file) => file.slice(file.lastIndexOf('/dist/')));
        const sdk = require('@parley/sdk');
        const resolved = [require.resolve('@parley/sdk'), require.resolve('@parley/sdk/webhooks')];
        ${exercise('sdk', 'webhooks').replace('console.log(JSON.stringify({', 'console.log(JSON.stringify({ resolved, loadedByWebhooks,')}
      })();`,
    );
    expect(result).toMatchObject({ ...expected, loadedByWebhooks: ['/dist/node/webhooks.cjs'] });
    expect(result.resolved).toEqual([
      expect.stringMatching(/dist\/node\/index\.cjs$/),
      expect.stringMatching(/dist\/node\/webhooks\.cjs$/),
    ]);
  });

  it('the default (Web Crypto) ESM build works', () => {
    const result = run(
      'esm',
      `const sdk = await import(${JSON.stringify(dist('index.js'))}); const webhooks = await import(${JSON.stringify(dist('webhooks.js'))});
       ${exercise('sdk', 'webhooks')}`,
    );
    expect(result).toMatchObject(expected);
  });

  it('the default (Web Crypto) CJS build works', () => {
    const result = run(
      'cjs',
      `(async () => {
        const sdk = require(${JSON.stringify(dist('index.cjs'))}); const webhooks = require(${JSON.stringify(dist('webhooks.cjs'))});
        ${exercise('sdk', 'webhooks')}
      })();`,
    );
    expect(result).toMatchObject(expected);
  });

  it('keeps Node built-ins out of the default build', async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const defaultFiles = (await readdir(dist(''))).filter((file) => /\.c?js$/.test(file));
    for (const file of defaultFiles)
      expect(await readFile(dist(file), 'utf8')).not.toMatch(/node:|['"]crypto['"]/);
  });

  it.each([
    ['node build', `await import('@parley/sdk/webhooks')`, true],
    ['default build', `await import(${JSON.stringify(dist('webhooks.js'))})`, false],
  ])('the %s uses node:crypto only under the node condition', (_name, load, usesNodeCrypto) => {
    const result = run(
      'esm',
      `const loaded = [];
       const original = process.getBuiltinModule;
       process.getBuiltinModule = (id) => (loaded.push(id), original(id));
       const webhooks = ${load};
       const headers = await webhooks.signWebhook({ payload: '{}', secret: 'whsec_x', id: 'evt_1' });
       console.log(JSON.stringify({ loaded, signature: headers['parley-signature'].length }));`,
    );
    expect(result.signature).toBe(67);
    expect((result.loaded as string[]).includes('node:crypto')).toBe(usesNodeCrypto);
  });

  // Asking for node:crypto is not using it: with Web Crypto broken, only the node build still
  // signs and verifies, so it cannot have fallen back to Web Crypto unnoticed.
  it.each([
    ['node build', `await import('@parley/sdk/webhooks')`, true],
    ['default build', `await import(${JSON.stringify(dist('webhooks.js'))})`, false],
  ])('the %s works with Web Crypto broken only when it runs node:crypto', (_name, load, works) => {
    const result = run(
      'esm',
      `const broken = () => Promise.reject(new Error('Web Crypto used'));
       Object.assign(Object.getPrototypeOf(crypto.subtle), { importKey: broken, sign: broken });
       const webhooks = ${load};
       const payload = JSON.stringify({ id: 'evt_1', type: 'webhook.test' });
       const outcome = await webhooks.signWebhook({ payload, secret: 'whsec_x', id: 'evt_1' })
         .then((headers) => webhooks.verifyWebhook(payload, headers, 'whsec_x'))
         .then((event) => event.id, (error) => error.message);
       console.log(JSON.stringify({ outcome }));`,
    );
    expect(result.outcome).toBe(works ? 'evt_1' : 'Web Crypto used');
  });
});

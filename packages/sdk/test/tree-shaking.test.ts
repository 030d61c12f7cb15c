import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The BUILT package bundled as an app bundles it (root `pnpm test` builds first): the default and
// the webhooks entries share one chunk, so a statement with a side effect in a webhook module
// lands in every app that imports only the client, whatever `sideEffects: false` says.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
let appDir: string;

beforeAll(() => {
  if (!existsSync(join(packageDir, 'dist', 'index.js'))) {
    throw new Error('packages/sdk/dist is missing: run `pnpm build` first');
  }
  appDir = mkdtempSync(join(tmpdir(), 'parley-tree-shaking-'));
  mkdirSync(join(appDir, 'node_modules', '@parley'), { recursive: true });
  symlinkSync(packageDir, join(appDir, 'node_modules', '@parley', 'sdk'), 'dir');
});

afterAll(() => {
  rmSync(appDir, { recursive: true, force: true });
});

/**
 * The minified browser bundle of an app whose whole code is `entry`: one file, or with
 * `splitting` the app's chunk followed by the chunks it loads lazily.
 */
async function appBundles(entry: string, splitting: boolean): Promise<string[]> {
  const result = await build({
    stdin: { contents: entry, resolveDir: appDir, loader: 'js' },
    bundle: true,
    minify: true,
    splitting,
    outdir: join(appDir, 'out'),
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    // Whatever the package's code imports is found where the package's dependencies are.
    nodePaths: [join(packageDir, 'node_modules')],
  });
  const isApp = (path: string) => +path.endsWith('stdin.js');
  return [...result.outputFiles].sort((a, b) => isApp(b.path) - isApp(a.path)).map((file) => file.text);
}

/** The single-file minified browser bundle of an app whose whole code is `entry`. */
async function appBundle(entry: string): Promise<string> {
  return (await appBundles(entry, false))[0]!;
}

describe('an app that imports only { Parley }', () => {
  it('bundles no webhook text codec and no sandbox event type list', async () => {
    const code = await appBundle("export { Parley } from '@parley/sdk';");
    const encoders = (text: string) => text.split('new TextEncoder').length - 1;
    expect(code).toContain('parley-sdk-js/');
    // The SDK's codecs are verifyWebhook's strict decoder and the encoders of the Web Crypto HMAC
    // and of the body reader: none is the client's (with ky gone, the bundle has no other).
    expect(encoders(code)).toBe(0);
    expect(code).not.toContain('fatal:');
    expect(code).not.toContain('!=="developer.application.created"');
  });

  it("bundles no webhook event shapes (the handler's Map is built in a pure call)", async () => {
    const code = await appBundle("export { Parley } from '@parley/sdk';");
    expect(code).not.toContain('message.status_updated');
  });

  // The known leak left, outside the client's code: a WebhookVerificationError is branded by a
  // call at the top of its module (~60 bytes gzip). When it is gone this test fails: make it a
  // plain `it`.
  it.fails('bundles no webhook code at all', async () => {
    const code = await appBundle("export { Parley } from '@parley/sdk';");
    expect(code).not.toContain('WebhookVerificationError');
  });

  it('still names the client errors it throws (their branding is kept)', async () => {
    const code = await appBundle("export { Parley } from '@parley/sdk';");
    for (const name of [
      'ParleyError',
      'APIError',
      'NotFoundError',
      'APIUserAbortError',
      'ConfigurationError',
    ]) {
      expect(code).toContain(`"${name}"`);
    }
  });
});

// The OpenTelemetry code is a dynamic import reached only through the `tracer`/`meter` options.
// A splitting bundler (Vite, Rollup, webpack, esbuild --splitting) leaves it out of the app's
// chunk: an app that traces nothing never loads it. A single-file bundle inlines it (+1.4 KB
// gzip, bench/bundle-size.mjs); the hook left in the client is ~0.15 KB.
describe('an app that imports { Parley } and traces nothing', () => {
  it('gets the OpenTelemetry code in a lazy chunk, not in its own, with a splitting bundler', async () => {
    const [app, ...lazy] = await appBundles("export { Parley } from '@parley/sdk';", true);
    expect(app).toContain('parley-sdk-js/');
    for (const tracingText of ['traceparent', 'http.client.request.duration', 'url.template']) {
      expect(app).not.toContain(tracingText);
      expect(lazy.join('\n')).toContain(tracingText);
    }
    expect(lazy).toHaveLength(1);
  });
});

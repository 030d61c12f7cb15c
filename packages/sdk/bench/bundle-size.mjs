// Browser bundle sizes (esbuild, minified, gzip level 9) of the built default entries with every
// export kept, of the webhooks entry's two main uses, and ky alone and standardwebhooks as
// references measured in the same run.

import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

async function gzippedSize(entryCode) {
  const result = await build({
    stdin: { contents: entryCode, resolveDir: packageDir, loader: 'js' },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

export async function benchBundleSize() {
  const subjects = {
    'ky alone (reference)': "export { default } from 'ky';",
    '@parley/sdk (whole)': "export * from './dist/index.js';",
    '@parley/sdk { Parley } only': "export { Parley } from './dist/index.js';",
    '@parley/sdk/webhooks': "export * from './dist/webhooks.js';",
    // Tree-shaking: a verify-only receiver does not pay for createWebhookHandler.
    '@parley/sdk/webhooks { verifyWebhook } only': "export { verifyWebhook } from './dist/webhooks.js';",
    '@parley/sdk/webhooks { createWebhookHandler } only':
      "export { createWebhookHandler } from './dist/webhooks.js';",
    'standardwebhooks (reference)': "export * from 'standardwebhooks';",
  };
  const sizes = {};
  for (const [name, code] of Object.entries(subjects)) sizes[name] = await gzippedSize(code);
  const ky = sizes['ky alone (reference)'].gzip;
  return Object.entries(sizes).map(([name, size]) => ({
    bundle: name,
    'min KB': (size.minified / 1024).toFixed(1),
    'gzip KB': (size.gzip / 1024).toFixed(2),
    'gzip ratio to ky': (size.gzip / ky).toFixed(2),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchBundleSize());

// Browser bundle sizes as an app gets them: `@parley/sdk` imported by name from a folder outside
// the package (resolved through its package.json `exports`, browser conditions), bundled by
// esbuild for target es2022, minified, gzip level 9. A size does not depend on the machine, so
// each row's ratio is its size in KB (baseline: 1024 bytes). ky alone, the webhooks entry and
// standardwebhooks are references. Needs the built dist.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { benchRow, isMain, printRows } from './_rows.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** gzip bytes of `entryCode` bundled from `appDir` (where `@parley/sdk` is installed). */
async function gzippedSize(entryCode, appDir) {
  const result = await build({
    stdin: { contents: entryCode, resolveDir: appDir, loader: 'js' },
    bundle: true,
    minify: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    // The references (ky, standardwebhooks) are not the app's dependencies: found in the SDK's.
    nodePaths: [join(packageDir, 'node_modules')],
  });
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
}

/** The figures as rows: `{ Parley }` ≤ 12 KB and the whole SDK ≤ 16 KB, then the references. */
export async function bundleRows() {
  // An app's node_modules with the package linked in, as a workspace or `npm link` installs it.
  const appDir = mkdtempSync(join(tmpdir(), 'parley-bundle-'));
  try {
    mkdirSync(join(appDir, 'node_modules', '@parley'), { recursive: true });
    symlinkSync(packageDir, join(appDir, 'node_modules', '@parley', 'sdk'), 'dir');
    const subjects = [
      ['@parley/sdk { Parley }', "export { Parley } from '@parley/sdk';", 12],
      ['@parley/sdk whole', "export * from '@parley/sdk';", 16],
      ['@parley/sdk/webhooks whole', "export * from '@parley/sdk/webhooks';", null],
      // Tree-shaking: a verify-only receiver does not pay for createWebhookHandler.
      [
        '@parley/sdk/webhooks { verifyWebhook }',
        "export { verifyWebhook } from '@parley/sdk/webhooks';",
        null,
      ],
      ['ky alone', "export { default } from 'ky';", null],
      ['standardwebhooks', "export * from 'standardwebhooks';", null],
    ];
    const rows = [];
    for (const [name, code, goal] of subjects) {
      const bytes = await gzippedSize(code, appDir);
      rows.push(
        benchRow({ name: `${name} KB min+gz`, value: bytes, baseline: 1024, goal, direction: 'max' }),
      );
    }
    return rows;
  } finally {
    rmSync(appDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) printRows(await bundleRows());

import { readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { findDocsDir } from './_docs-dir';
import { toolError } from './_tool-output';
import type { InFlightCalls } from './in-flight-calls';
import type { McpTarget } from './mcp-target';

// The largest doc is under 100 KB: a bound far past it that no read may cross.
const MAX_DOC_BYTES = 2 * 1024 * 1024;

/** The OpenAPI descriptions, by resource name. */
const OPENAPI = new Map([
  ['openapi-api', { file: 'openapi.yaml', title: 'OpenAPI: the Parley API (/v1)' }],
  [
    'openapi-emulator',
    { file: 'emulator-api.yaml', title: 'OpenAPI: the emulator control API (/_emulator)' },
  ],
]);

/**
 * The resources: every docs/*.md page and both OpenAPI descriptions, read from disk (offline), and
 * the emulator's magic-numbers table, read from the emulator when asked. Docs are listed only when
 * the docs folder is there (the repository; a packed CLI has none: the tools still work).
 */
export function registerResources(server: McpServer, target: McpTarget, calls: InFlightCalls): void {
  const docsDir = findDocsDir();
  if (docsDir) {
    const pages = readdirSync(docsDir)
      .filter((name) => /^[a-z0-9-]+\.md$/.test(name))
      .sort();
    for (const page of pages) {
      const name = page.slice(0, -'.md'.length);
      server.registerResource(
        `docs-${name}`,
        `parley://docs/${page}`,
        { title: `Parley docs: ${name}`, mimeType: 'text/markdown' },
        calls.wrap(async (uri) => ({
          contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await readDoc(docsDir, page) }],
        })),
      );
    }
    for (const [name, { file, title }] of OPENAPI) {
      server.registerResource(
        name,
        `parley://openapi/${file}`,
        { title, mimeType: 'application/yaml' },
        calls.wrap(async (uri) => ({
          contents: [{ uri: uri.href, mimeType: 'application/yaml', text: await readDoc(docsDir, file) }],
        })),
      );
    }
  }
  if (target.emulator) {
    server.registerResource(
      'magic-numbers',
      'parley://emulator/magic-numbers',
      {
        title: 'Magic numbers',
        description: 'Sandbox recipients with a fixed outcome, as the emulator lists them',
        mimeType: 'application/json',
      },
      calls.wrap(async (uri) => {
        const text = await target.control.listMagicNumbers({ limit: 100 }).then(
          (page) => JSON.stringify(page.data, null, 2),
          (error: unknown) => JSON.stringify({ error: toolError(error) }, null, 2),
        );
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
      }),
    );
  }
}

/** The file's text, read up to the bound (one byte past it is an error, never a cut page). */
async function readDoc(dir: string, file: string): Promise<string> {
  const handle = await open(`${dir}${file}`, 'r');
  try {
    const buffer = Buffer.alloc(MAX_DOC_BYTES + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > MAX_DOC_BYTES) throw new Error(`${file} is over ${MAX_DOC_BYTES} bytes`);
    }
    return buffer.toString('utf8', 0, size);
  } finally {
    await handle.close();
  }
}

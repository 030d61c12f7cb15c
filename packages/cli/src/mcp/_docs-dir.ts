import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The copy the build ships in dist/docs/ (build/copy-docs.mjs: what a packed install has), then the
// repository's docs from the source (src/mcp/) and from the built chunk (dist/).
const CANDIDATES = ['./docs/', '../../../../docs/', '../../../docs/'];
// A name only Parley's docs folder has, so that another project's docs/ is never served.
const MARKER = 'emulator-api.yaml';

/** Parley's docs folder (shipped in dist/docs/, or the repository's), or undefined when neither is there. */
export function findDocsDir(): string | undefined {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}${MARKER}`)) return dir;
  }
  return undefined;
}

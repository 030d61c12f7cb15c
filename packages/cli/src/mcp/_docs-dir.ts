import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// From the source (src/mcp/), from the built chunk (dist/), and from docs shipped beside dist.
const CANDIDATES = ['../../../../docs/', '../../../docs/', '../docs/'];
// A name only Parley's docs folder has, so that another project's docs/ is never served.
const MARKER = 'emulator-api.yaml';

/** The repository's docs folder, or undefined when this CLI runs without it (a packed install). */
export function findDocsDir(): string | undefined {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}${MARKER}`)) return dir;
  }
  return undefined;
}

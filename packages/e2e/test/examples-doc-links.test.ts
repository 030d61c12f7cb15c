import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A newcomer follows the README's links into docs/ and examples/: every relative link must land
// on a file that exists and, with a #fragment, on a heading of that file (GitHub's anchor rule).

const root = fileURLToPath(new URL('../../../', import.meta.url));
const DOCUMENTS = [
  'README.md',
  'packages/sdk/README.md',
  'packages/cli/README.md',
  'packages/emulator/README.md',
  'docs/getting-started.md',
  'docs/sdk.md',
  'docs/webhooks.md',
  'docs/emulator.md',
  'docs/api-reference.md',
  'docs/errors.md',
  'docs/decisions.md',
  'docs/cli.md',
  'docs/testing-your-app.md',
];

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

describe('links in the README and docs', () => {
  it('point at files and headings that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const document of DOCUMENTS) {
      const text = readFileSync(join(root, document), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, fragment] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(root, document) : join(dirname(join(root, document)), path);
        checked++;
        if (!existsSync(file)) broken.push(`${document}: ${target} (no such file)`);
        else if (fragment && file.endsWith('.md') && !anchorsOf(file).has(fragment)) {
          broken.push(`${document}: ${target} (no such heading)`);
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(broken).toEqual([]);
  });
});

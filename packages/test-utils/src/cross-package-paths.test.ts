import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/**
 * STYLE 17: what tests of several packages share lives here, in @parley/test-utils, and no file
 * reaches into another package's src/ by a relative path (as ../../cli/src/_test/… once did).
 * Packages are imported by name; their built dist/ may be run by path, and the examples (programs
 * a user copies) may be run from their source.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCANNED = ['src', 'test', 'hardening', 'bench'];
// It swaps the SDK's private HMAC module for each implementation (vi.doMock), which only a path reaches.
const ALLOWED = new Set(['packages/e2e/hardening/verify-webhook-mutations.test.ts']);
const RELATIVE_PATH = /['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** `packages/sdk` for a path inside it, `examples/send-message`…, or undefined. */
function projectOf(path: string): string | undefined {
  const [area, name] = relative(root, path).split(sep);
  return (area === 'packages' || area === 'examples') && name ? `${area}/${name}` : undefined;
}

function projects(): string[] {
  return ['packages', 'examples'].flatMap((area) =>
    readdirSync(join(root, area), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${area}/${entry.name}`),
  );
}

test("no file reaches another package's src/ by a relative path", () => {
  const files = projects().flatMap((project) =>
    SCANNED.flatMap((folder) => {
      try {
        return sourceFiles(join(root, project, folder));
      } catch {
        return [];
      }
    }),
  );
  expect(files.length).toBeGreaterThan(300);
  const reaches = files.flatMap((file) => {
    const name = relative(root, file).split(sep).join('/');
    if (ALLOWED.has(name)) return [];
    const own = projectOf(file);
    return [...readFileSync(file, 'utf8').matchAll(RELATIVE_PATH)].flatMap(([, path]) => {
      const target = resolve(dirname(file), path!);
      const project = projectOf(target);
      const inSource = relative(root, target).split(sep)[2] === 'src';
      const isPackage = project?.startsWith('packages/');
      return isPackage && project !== own && inSource ? [`${name}: ${path}`] : [];
    });
  });
  expect(reaches).toEqual([]);
});

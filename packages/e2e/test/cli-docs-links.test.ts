// An installed CLI has no docs folder (its package's files are dist, README, LICENSE, CHANGELOG):
// every guide it names is the published page, in the repository package.json names (issue 24).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { describe, expect, it } from 'vitest';

const CLI_DIR = fileURLToPath(new URL('../../cli/', import.meta.url));
const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));
const PUBLISHED = 'https://github.com/parley/parley-tooling/blob/main/docs/';

describe('the docs the built CLI names', () => {
  it('the published address is the repository package.json names', () => {
    const manifest = JSON.parse(readFileSync(`${CLI_DIR}package.json`, 'utf8')) as {
      repository: { url: string };
    };
    expect(manifest.repository.url).toBe('git+https://github.com/parley/parley-tooling.git');
    expect(PUBLISHED.startsWith(manifest.repository.url.replace(/^git\+|\.git$/g, ''))).toBe(true);
  });

  it('parley --help names the published cli.md, a page the repository has', async () => {
    assertCliBuilt();
    const { code, stdout } = await runCli(['--help'], {});
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((line) => line.startsWith('Docs:'))).toEqual([
      `Docs: ${PUBLISHED}cli.md`,
    ]);
    expect(existsSync(`${DOCS_DIR}cli.md`)).toBe(true);
  });

  it('no file of dist names a local docs path; each guide it links exists', () => {
    assertCliBuilt();
    const local: string[] = [];
    const linked: string[] = [];
    for (const file of readdirSync(`${CLI_DIR}dist`).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(`${CLI_DIR}dist/${file}`, 'utf8');
      for (const [path] of code.matchAll(/\S*docs\/[\w-]+\.md/g)) {
        if (!path.includes(PUBLISHED)) local.push(path);
      }
      for (const [, page] of code.matchAll(/docsLink\(\s*"([\w-]+\.md)"/g)) linked.push(page!);
    }
    expect(local).toEqual([]);
    expect(linked).toEqual(expect.arrayContaining(['cli.md', 'testing-your-app.md']));
    for (const page of linked) expect(existsSync(`${DOCS_DIR}${page}`)).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every TypeScript snippet of the README and the guides is type-checked against the real
// packages, so a renamed method, option or field breaks this test instead of a reader's code.
// Snippets are fragments: names they leave to the reader (`rawBody`, `handleEvent`), frameworks
// not installed here and implicit `any`s are tolerated; anything about our API is not.

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
  'docs/errors.md',
];
/** Fragment noise: names and modules left to the reader (also as `{ shorthand }`, or a runtime's global such as `Bun`), implicit any. */
const TOLERATED = new Set([2304, 2307, 2552, 2582, 2868, 7005, 7006, 7031, 7034, 18004]);

interface Snippet {
  file: string;
  document: string;
  line: number;
}

function extractSnippets(): { snippets: Snippet[]; sources: Map<string, string> } {
  const snippets: Snippet[] = [];
  const sources = new Map<string, string>();
  for (const document of DOCUMENTS) {
    const text = readFileSync(`${root}${document}`, 'utf8');
    for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      const line = text.slice(0, match.index).split('\n').length + 1;
      // Inside examples/express-receiver so `express` resolves as it would in a user's project.
      const file = `${root}examples/express-receiver/src/__snippet-${snippets.length}.ts`;
      sources.set(file, `${match[1]}\nexport {};\n`);
      snippets.push({ file, document, line });
    }
  }
  return { snippets, sources };
}

/**
 * docs/webhooks.md's framework recipes (issue 24): each block is an app CI runs, so it must be that
 * app's file, byte for byte. The Node ones run in examples-recipes.test.ts, the others in the
 * release check (install.sh copies them into the fresh project for recipes.mjs).
 */
const RECIPES = [
  ['examples/express-receiver/src/server.ts', 'packages/e2e/test/examples-recipes.test.ts'],
  ['examples/fastify-receiver/src/server.ts', 'packages/e2e/test/examples-recipes.test.ts'],
  ['examples/koa-receiver/src/server.ts', 'packages/e2e/test/examples-recipes.test.ts'],
  ['examples/node-http-receiver/src/server.ts', 'packages/e2e/test/examples-recipes.test.ts'],
  ['examples/hono-receiver/src/node-server.ts', 'packages/e2e/test/examples-recipes.test.ts'],
  ['examples/hono-receiver/src/worker.ts', 'packages/e2e/release/install.sh'],
  ['examples/h3-receiver/src/server.ts', 'packages/e2e/test/examples-recipes.test.ts'],
  [
    'examples/nextjs-receiver/src/app/api/webhooks/parley/route.ts',
    'packages/e2e/test/examples-recipes.test.ts',
  ],
  ['examples/web-standard-receiver/runtimes/bun-server.ts', 'packages/e2e/release/install.sh'],
  ['examples/web-standard-receiver/runtimes/deno-server.ts', 'packages/e2e/release/install.sh'],
] as const;

/** The ```ts blocks of a markdown text between two headings (`until` excluded), with their line. */
function blocksBetween(text: string, from: string, until: string): { code: string; line: number }[] {
  const start = text.indexOf(`\n${from}\n`);
  const end = text.indexOf(`\n${until}\n`, start);
  if (start === -1 || end === -1) throw new Error(`no section from '${from}' to '${until}'`);
  return [...text.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => ({
    code: match[1]!,
    line: text.slice(0, start + match.index).split('\n').length + 1,
  }));
}

describe("docs/webhooks.md's framework recipes", () => {
  const text = readFileSync(`${root}docs/webhooks.md`, 'utf8');

  it('are each the file of an app CI runs, named on its first line, in the listed order', () => {
    const blocks = blocksBetween(text, '### In each framework', '### Deduplication and ordering stores');
    expect(blocks.map((block) => block.code.split('\n')[0])).toEqual(RECIPES.map(([file]) => `// ${file}`));
    for (const [index, [file]] of RECIPES.entries()) {
      // toBe on the whole text: a stale block shows as a diff against the file that runs.
      expect(blocks[index]!.code, `docs/webhooks.md:${blocks[index]!.line} vs ${file}`).toBe(
        readFileSync(`${root}${file}`, 'utf8'),
      );
    }
  });

  it('are each run by a CI step that names the file', () => {
    for (const [file, runner] of RECIPES) {
      const runs = readFileSync(`${root}${runner}`, 'utf8');
      // install.sh names files by their folder and base name; the test by their whole path.
      expect(
        runs.includes(file) || runs.includes(file.slice(file.lastIndexOf('/'))),
        `${runner} runs ${file}`,
      ).toBe(true);
    }
  });

  it('leave no framework block outside that section (every recipe in the docs runs)', () => {
    const all = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const framework =
      /\b(from '(express|fastify|koa|hono|h3|next[^']*)'|Bun\.serve|Deno\.serve|export default \{)/;
    const outside = all.filter((code) => framework.test(code) && !code.startsWith('// examples/'));
    expect(outside).toEqual([]);
  });
});

describe('TypeScript snippets in the README and docs', () => {
  it('type-check against the real packages', () => {
    const { snippets, sources } = extractSnippets();
    expect(snippets.length).toBeGreaterThan(25);
    const config = ts.getParsedCommandLineOfConfigFile(
      `${root}tsconfig.json`,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    )!;
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (file) => sources.get(file) ?? readFile(file);
    host.fileExists = (file) => sources.has(file) || fileExists(file);
    host.getSourceFile = (file, language, onError, create) => {
      const source = sources.get(file);
      return source === undefined
        ? getSourceFile(file, language, onError, create)
        : ts.createSourceFile(file, source, language);
    };
    const program = ts.createProgram(
      snippets.map((snippet) => snippet.file),
      { ...config.options, noEmit: true },
      host,
    );

    const problems = snippets.flatMap((snippet) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(snippet.file))
        .filter((diagnostic) => diagnostic.file?.fileName === snippet.file && !TOLERATED.has(diagnostic.code))
        .map((diagnostic) => {
          const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
          const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
          return `${snippet.document}:${snippet.line + line} TS${diagnostic.code} ${message}`;
        }),
    );
    expect(problems).toEqual([]);
    // A whole TypeScript program: 28-30 s measured on a busy 2-core machine, over the 20 s default.
  }, 60_000);
});

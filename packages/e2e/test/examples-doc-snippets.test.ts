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
/** Fragment noise: names and modules left to the reader (also as `{ shorthand }`), implicit any. */
const TOLERATED = new Set([2304, 2307, 2552, 2582, 7005, 7006, 7031, 7034, 18004]);

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
  });
});

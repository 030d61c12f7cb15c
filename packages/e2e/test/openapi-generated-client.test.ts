import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/openapi.yaml is what outside clients generate code from. Here it goes through the most
// common TypeScript route, with default settings: openapi-typescript types, an openapi-fetch
// program (fixtures/openapi-fetch-client.ts) that must type-check strictly without casts, then
// run against a listening emulator. A description that generators misread fails here.

const ACTIVE_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const documentUrl = new URL('../../../docs/openapi.yaml', import.meta.url);
const fixture = fileURLToPath(new URL('../fixtures/openapi-fetch-client.ts', import.meta.url));
// Inside the package's node_modules (git-ignored), so the generated program resolves
// `openapi-fetch` the way a user's project would, both for tsc and for Node.
const cacheDir = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));

/** A user's strict settings with Node's own ESM resolution (the strictest common one). */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  types: [],
  noEmit: true,
  // Library .d.ts files are not ours; the generated types are a .ts file, so they are checked.
  skipLibCheck: true,
};

/**
 * The fixture's export, spelled out rather than imported: the repository's own tsc would follow
 * the import into the fixture, whose generated types exist only while this test runs.
 */
type SendAndRead = (options: {
  baseUrl: string;
  apiKey: string;
  connectionId: string;
}) => Promise<Record<'template' | 'text' | 'read' | 'missing', Record<string, unknown>>>;

let workDir: string;
let program: string;
let server: EmulatorServer | undefined;

beforeAll(async () => {
  mkdirSync(cacheDir, { recursive: true });
  workDir = mkdtempSync(join(cacheDir, 'openapi-client-'));
  const types = astToString(await openapiTS(documentUrl));
  writeFileSync(join(workDir, 'parley-api.ts'), types);
  // `.mts`: an ES module whatever package.json is nearest, as a user's ESM project has it.
  program = join(workDir, 'client.mts');
  copyFileSync(fixture, program);
});

afterAll(async () => {
  await server?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('docs/openapi.yaml through openapi-typescript and openapi-fetch', () => {
  it('generates types that a strict openapi-fetch program compiles against with no diagnostics', () => {
    const compiled = ts.createProgram([program], COMPILER_OPTIONS);
    const diagnostics = ts.getPreEmitDiagnostics(compiled).map((diagnostic) => {
      const { file, start = 0 } = diagnostic;
      const where = file
        ? `${relative(workDir, file.fileName)}:${file.getLineAndCharacterOfPosition(start).line + 1}`
        : 'options';
      return `${where} TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
    expect(diagnostics).toEqual([]);
  });

  it('runs that program against a listening emulator: two sends answered 202, the read 200', async () => {
    const { outputText } = ts.transpileModule(readFileSync(program, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
    });
    const compiledFile = join(workDir, 'client.mjs');
    writeFileSync(compiledFile, outputText);
    const { sendAndRead } = (await import(pathToFileURL(compiledFile).href)) as { sendAndRead: SendAndRead };
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });

    const answers = await sendAndRead({
      baseUrl: server.baseUrl,
      apiKey: server.sandboxKey,
      connectionId: ACTIVE_CONNECTION,
    });

    const sent = {
      object: 'message',
      direction: 'outbound',
      connection_id: ACTIVE_CONNECTION,
      to: '+33612345678',
      from: null,
      status: 'queued',
      error: null,
      livemode: false,
    };
    expect(answers.template).toEqual({
      status: 202,
      message: expect.objectContaining({
        ...sent,
        type: 'template',
        template: { name: 'hello_world', language: 'en' },
        text: null,
        client_reference: 'generated-client',
      }),
    });
    expect(answers.text).toEqual({
      status: 202,
      message: expect.objectContaining({
        ...sent,
        type: 'text',
        text: 'Bonjour',
        template: null,
        client_reference: null,
      }),
    });
    // The clock is frozen, so the read is the accepted message unchanged.
    expect(answers.read).toEqual({ status: 200, message: answers.template.message });
    expect(answers.missing).toEqual({ status: 404, code: 'not_found', details: expect.any(Object) });
  });
});

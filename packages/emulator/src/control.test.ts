import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';
import * as control from './control';

test('the public surface of @parley/emulator/control is exactly this (review any change)', () => {
  expect(Object.keys(control).sort()).toMatchInlineSnapshot(`
    [
      "ControlResponseError",
      "DEFAULT_CONTROL_BASE_URL",
      "DEFAULT_SANDBOX_KEY",
      "EmulatorControlError",
      "MAX_CONTROL_ANSWER_BYTES",
      "createControlClient",
      "isControlResponseError",
      "isEmulatorControlError",
      "listAll",
      "readAtMost",
    ]
  `);
});

test('@parley/emulator/control bundles for a browser from its own files alone: no h3, srvx, undici, SDK or Node built-in', async () => {
  // Bundled with nothing external for a browser: a Node built-in would not resolve, and any
  // package or emulator module it pulled in would be listed among the inputs.
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./control.ts', import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).map((path) =>
    path.replace(/^.*packages\/emulator\/src\//, ''),
  );
  expect(inputs.sort()).toEqual([
    'control-client/_bounded-read.ts',
    'control-client/_control-request.ts',
    'control-client/control-client-errors.ts',
    'control-client/create-control-client.ts',
    'control-client/list-all.ts',
    'control.ts',
    // Constants only (the ready sandbox key the CLI falls back to): no import of its own.
    'core/defaults.ts',
  ]);
  const [output] = Object.values(result.metafile.outputs);
  expect(output?.imports).toEqual([]);
  expect(output?.bytes).toBeLessThan(16 * 1024);
});

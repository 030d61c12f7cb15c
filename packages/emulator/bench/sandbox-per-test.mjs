// A sandbox per test (@parley/emulator/vitest, createSandbox): how long a test waits for its own
// workspace, application, key, frozen clock and SDK client once the worker's emulator runs, against
// creating a bare Parley client in the same run. `node bench/sandbox-per-test.mjs` (after pnpm build)
// prints the figures alone; bench/run.mjs reports them with the others.
import { fileURLToPath } from 'node:url';
import { Parley } from '@parley/sdk';
import { median } from './_processes.mjs';

const { createEmulator, createSandbox } = await import(new URL('../dist/index.js', import.meta.url).href);

/** Median ms of `rounds` sandboxes (after a first one, timed apart), their disposal, and the baseline. */
export async function sandboxPerTest({ rounds = 1_000 } = {}) {
  const emulator = createEmulator({ clock: 'frozen' });
  await emulator.ready;
  const timed = async (work) => {
    const started = performance.now();
    const value = await work();
    return { ms: performance.now() - started, value };
  };
  const first = await timed(() => createSandbox(emulator));
  await first.value.dispose();
  const ready = [];
  const disposed = [];
  for (let round = 0; round < rounds; round++) {
    const sandbox = await timed(() => createSandbox(emulator));
    ready.push(sandbox.ms);
    disposed.push((await timed(() => sandbox.value.dispose())).ms);
  }
  const apiKey = first.value.apiKey;
  const fetch = (input, init) => emulator.fetch(new Request(input, init));
  const bare = [];
  for (let round = 0; round < rounds; round++) {
    bare.push((await timed(() => new Parley({ apiKey, baseUrl: 'http://127.0.0.1:4010/v1', fetch }))).ms);
  }
  await emulator.close();
  return {
    rounds,
    firstMs: first.ms,
    readyMs: median(ready),
    // The last hundred, when the emulator already holds every earlier sandbox's workspace.
    readyLateMs: median(ready.slice(-100)),
    disposeMs: median(disposed),
    bareClientMs: median(bare),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await sandboxPerTest();
  console.log(
    `sandbox per test, median of ${figures.rounds}: ready ${figures.readyMs.toFixed(3)} ms (last 100: ${figures.readyLateMs.toFixed(3)} ms), dispose ${figures.disposeMs.toFixed(3)} ms, first ${figures.firstMs.toFixed(1)} ms; bare new Parley() ${figures.bareClientMs.toFixed(4)} ms`,
  );
}

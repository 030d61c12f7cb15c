#!/usr/bin/env node
import { tuneV8ForEmulator } from './server/_v8-tuning';
import { runCli } from './server/run-cli';

tuneV8ForEmulator();

// The one place the emulator's process exits.
const result = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
if (typeof result === 'number') {
  process.exitCode = result;
} else {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Persist first, then exit: a restart with the same --data-dir finds everything.
    result.close().then(
      () => process.exit(signal === 'SIGINT' ? 130 : 143),
      (error: unknown) => {
        process.stderr.write(`parley-emulator: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

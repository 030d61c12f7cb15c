// The emulator as the bin runs it, but without the bin's V8 tuning (server/_v8-tuning.ts): what
// `parley emulator start` and every other in-process use get. pnpm bench weighs the tuning with it.
import { runCli } from '../dist/index.js';

const result = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
if (typeof result === 'number') process.exitCode = result;

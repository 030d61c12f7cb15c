#!/usr/bin/env node
// The entry: `parley --version` is answered from the version inlined at build time before
// commander or any command is read; every other call loads the program (`_program.ts`).
import { writeSync } from 'node:fs';
import module from 'node:module';
import { version } from '../package.json';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Straight to fd 1: creating process.stdout (a stream and its modules) costs more than the rest
  // of this path. A full non-blocking pipe (EAGAIN) gets the stream, which waits; a reader that is
  // gone (EPIPE) or a closed descriptor is not an error, as it never was for `--version`.
  try {
    writeSync(1, `${version}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') process.stdout.write(`${version}\n`);
  }
} else {
  // Node 22.1+: what loads from here on (commander, the commands, the SDK) is compiled once and
  // cached on disk; enabled before the import, so the program's own chunk is cached too.
  module.enableCompileCache?.();
  const { runProgram } = await import('./_program');
  // The only process.exit of the CLI: commands return or throw ExitError, this ends the process.
  process.exit(await runProgram(version));
}

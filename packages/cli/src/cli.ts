#!/usr/bin/env node
// The entry, which reads no more than each call needs: `--version` is answered from the version
// inlined at build time, a plain command (`_plain-commands.ts`, part of this file) loads the one
// file that runs those (`_plain-run.ts`), anything else loads commander and the command table
// (`_program.ts`).
import { writeSync } from 'node:fs';
import module from 'node:module';
import { version } from '../package.json';
import { plainInvocation, runPlain } from './_plain-commands';

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
  // cached on disk.
  module.enableCompileCache?.();
  let exitCode: number;
  try {
    const plain = plainInvocation(args);
    exitCode = plain ? await runPlain(plain) : await (await import('./_program')).runProgram(version, args);
  } catch (error) {
    process.stderr.write(
      `parley: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    exitCode = 1; // EXIT.api, written out: importing exit-error.ts would add a file to `--version`
  }
  // The only process.exit of the CLI: commands return or throw ExitError, this ends the process.
  process.exit(exitCode);
}

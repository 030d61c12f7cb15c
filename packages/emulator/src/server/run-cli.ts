import { DomainError } from '../domain/domain-error';
import { printable } from '../store/_printable';
import { DataDirError, PersistenceError } from '../store/data-dir-errors';
import { SeedError } from '../store/parse-seed';
import { EMULATOR_VERSION } from '../version';
import { startSummary, summaryLines } from './_start-summary';
import { parseCliFlags, USAGE, UsageError } from './cli-flags';
import { type EmulatorServer, startEmulatorServer } from './start-server';

/** Where the bin writes and how it ends; injected so tests can run it in process. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * Runs `parley-emulator`: returns the exit code for a usage error or a failed start (2 and 1),
 * or the running server.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number | EmulatorServer> {
  let flags: ReturnType<typeof parseCliFlags>;
  try {
    flags = parseCliFlags(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`parley-emulator: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (flags.help) {
    io.out(USAGE);
    return 0;
  }
  if (flags.version) {
    io.out(EMULATOR_VERSION);
    return 0;
  }
  const options = { ...flags.server };
  if (flags.seedFile) {
    try {
      const { readSeedFile } = await import('../store/read-seed-file');
      Object.assign(options, { seed: await readSeedFile(flags.seedFile) });
    } catch (error) {
      io.err(`parley-emulator: ${(error as Error).message}`);
      return 2;
    }
  }
  if (flags.importFile) {
    try {
      const { readBundleFile } = await import('../store/read-bundle-file');
      Object.assign(options, { import: readBundleFile(flags.importFile) });
    } catch (error) {
      io.err(`parley-emulator: ${(error as Error).message}`);
      return 2;
    }
  }
  if (flags.repair) {
    try {
      const { describeRepair, repairDataDir } = await import('../store/repair-data-dir');
      const dir = options.dataDir!;
      for (const line of describeRepair(dir, repairDataDir(dir))) io.err(`parley-emulator: ${line}`);
    } catch (error) {
      // A damaged snapshot or a data dir that cannot be written is bad input, as at start: 2.
      io.err(`parley-emulator: could not start: ${(error as Error).message}`);
      return error instanceof DataDirError ? 2 : 1;
    }
  }
  let server: EmulatorServer;
  try {
    server = await startEmulatorServer(options);
  } catch (error) {
    // A data dir that cannot be written (read-only, no permission, a file in the way, full) is a
    // bad input like a refused seed (a URL the policy forbids, a key that exists): 2, one line.
    if (error instanceof DataDirError || error instanceof PersistenceError) {
      const problem = error instanceof PersistenceError ? error.problem : error.message;
      io.err(`parley-emulator: could not start: ${problem}`);
      return 2;
    }
    // A bundle refused by its check names the place in the file (`messages[3].message.status`).
    if (flags.importFile && error instanceof DomainError && error.code === 'validation_error') {
      io.err(`parley-emulator: ${printable(flags.importFile, 200)}: ${error.message}`);
      return 2;
    }
    const seedProblem = error instanceof SeedError;
    io.err(`parley-emulator: ${seedProblem ? '' : 'could not start: '}${(error as Error).message}`);
    return seedProblem ? 2 : 1;
  }
  const summary = await startSummary(server, options.seed);
  if (flags.json) {
    io.out(
      JSON.stringify({
        ready: true,
        base_url: server.baseUrl,
        console_url: server.consoleUrl,
        control_url: server.controlUrl,
        sandbox_key: server.sandboxKey,
        // Added after the first four: readers of the original fields are unaffected.
        seeded: summary.seeded,
        restored: summary.restored,
      }),
    );
  } else {
    const settings = [
      `clock ${options.clock ?? 'real'}`,
      `URL policy ${options.urlPolicy ?? 'local'}`,
      `rate limits ${options.rateLimits === false ? 'off' : 'on'}`,
      `retries ${options.retrySchedule ?? 'real'}`,
      options.dataDir ? `data in ${options.dataDir}` : 'data in memory',
    ].join(' · ');
    io.out(`Parley emulator ${EMULATOR_VERSION}`);
    io.out(`  API base URL  ${server.baseUrl}`);
    io.out(`  Console       ${server.consoleUrl}`);
    io.out(`  Control API   ${server.controlUrl}`);
    io.out(`  Sandbox key   ${server.sandboxKey}`);
    io.out(`  ${settings}`);
    for (const line of summaryLines(summary, { seedFile: flags.seedFile, dataDir: options.dataDir })) {
      io.out(line);
    }
    io.out(`Parley emulator ready on ${server.url} (Ctrl+C to stop)`);
  }
  return server;
}

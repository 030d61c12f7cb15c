import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandContext } from '../../context';

/**
 * Runs the installed `parley-emulator` bin with `argv` as a child process, its output passed
 * through, until it exits or `context.signal` aborts (then it gets SIGINT and saves its state).
 * Used when the emulator package does not export its command-line entry for in-process use.
 */
export async function spawnEmulatorBin(argv: readonly string[], context: CommandContext): Promise<number> {
  const manifestPath = fileURLToPath(import.meta.resolve('@parley/emulator/package.json'));
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  const bin = manifest.bin?.['parley-emulator'];
  if (!bin) throw new Error('@parley/emulator declares no parley-emulator bin');
  const child = spawn(process.execPath, [join(dirname(manifestPath), bin), ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => context.stdout.write(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => context.stderr.write(chunk));
  const stop = () => child.kill('SIGINT');
  context.signal.addEventListener('abort', stop, { once: true });
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
    });
  } finally {
    context.signal.removeEventListener('abort', stop);
  }
}

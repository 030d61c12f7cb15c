// The root `pnpm emulator` script as scripts use it: `pnpm emulator --port 0 --json | head -1`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createControlClient } from '@parley/emulator/control';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('pnpm emulator --json', () => {
  // It may build stale packages first (scripts/run-built.mjs): generous on 2 shared cores.
  it('prints exactly one JSON line on stdout: no pnpm banner, no build output', {
    timeout: 180_000,
  }, async () => {
    const child = spawn('pnpm', ['emulator', '--port', '0', '--json'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so the emulator under pnpm and run-built stops with it.
      detached: true,
    });
    let stdout = '';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const ready = await new Promise<{ base_url: string }>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]!));
      });
      child.once('exit', (code) =>
        reject(new Error(`pnpm emulator exited with ${code} before its ready line`)),
      );
    });
    // A round trip after the ready line: anything else it meant to print on start is out by now.
    expect(await createControlClient({ baseUrl: ready.base_url }).health()).toMatchObject({ ok: true });
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toMatchObject({
      ready: true,
      base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/),
    });
  });
});

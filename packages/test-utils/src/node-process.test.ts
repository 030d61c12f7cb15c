import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startNodeProcess } from './node-process';

test('a process that exits without reading its stdin ends the run cleanly (no unhandled EPIPE)', async () => {
  const script = join(mkdtempSync(join(tmpdir(), 'parley-node-process-')), 'exit-at-once.mjs');
  writeFileSync(script, 'process.stdout.write("bye"); process.exit(3);\n');
  // Far more than a pipe holds (64 KiB on Linux), so the write is still pending when the process
  // is gone and always fails with EPIPE, whatever the machine's load.
  const started = startNodeProcess(script, [], { stdin: 'x'.repeat(4 * 1024 * 1024) });
  const result = await started.exited;
  expect(result).toEqual({ code: 3, stdout: 'bye', stderr: '' });
  // The write did fail, and the helper handled it: without its listener vitest reports the EPIPE
  // as an unhandled error and the whole run goes red after every test passed.
  expect((started.child.stdin!.errored as NodeJS.ErrnoException | null)?.code).toBe('EPIPE');
});

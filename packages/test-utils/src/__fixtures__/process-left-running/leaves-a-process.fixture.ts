// Run only by started-processes.test.ts, in a vitest of its own: a test that starts a process and
// ends without killing it (as one that times out does). The pid goes to PID_FILE.
import { writeFileSync } from 'node:fs';
import { test } from 'vitest';
import { startNodeProcess } from '../../node-process';

test('starts a process that never exits and leaves it', async () => {
  const forever = startNodeProcess('-e', ['setInterval(() => {}, 60_000)']);
  writeFileSync(process.env.PID_FILE!, String(forever.child.pid));
});

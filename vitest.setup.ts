import { afterAll } from 'vitest';
import { stopStartedProcesses } from './packages/test-utils/src/node-process';

// After each test file's own hooks (after-hooks run in reverse order, so this one runs last): no
// process a test started outlives its file, even when the test timed out before its own kill.
afterAll(stopStartedProcesses);

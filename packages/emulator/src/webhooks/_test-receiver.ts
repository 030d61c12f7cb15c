/** Moved to `@parley/test-utils`; this path stays only for tests written against it. Import from there. */
export type { ReceivedRequest, TestReceiver } from '@parley/test-utils';
export { startReceiver, TEST_CA } from '@parley/test-utils';

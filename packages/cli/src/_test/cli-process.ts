/**
 * Moved to `@parley/test-utils` (issue 11); this path stays only for tests written against it
 * while that change landed. Import from `@parley/test-utils`.
 */
export type { CliProcess, CliResult } from '@parley/test-utils';
export { assertCliBuilt, CLI_PATH, cliEnv, runCli, startCli } from '@parley/test-utils';

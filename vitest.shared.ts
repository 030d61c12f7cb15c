import { fileURLToPath } from 'node:url';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Tests import the packages by their published names, exactly as users do (STYLE: tRPC), but
 * resolve to source so no build is needed between an edit and a test run. Shared by the unit
 * and the hardening configs.
 */
export const packageAliases = [
  { find: /^@parley\/sdk\/webhooks$/, replacement: fromRoot('./packages/sdk/src/webhooks/index.ts') },
  { find: /^@parley\/sdk$/, replacement: fromRoot('./packages/sdk/src/index.ts') },
  { find: /^@parley\/emulator\/msw$/, replacement: fromRoot('./packages/emulator/src/msw.ts') },
  { find: /^@parley\/emulator\/vitest$/, replacement: fromRoot('./packages/emulator/src/vitest.ts') },
  { find: /^@parley\/emulator\/rules$/, replacement: fromRoot('./packages/emulator/src/rules.ts') },
  { find: /^@parley\/emulator\/control$/, replacement: fromRoot('./packages/emulator/src/control.ts') },
  { find: /^@parley\/emulator$/, replacement: fromRoot('./packages/emulator/src/index.ts') },
  { find: /^@parley\/test-utils$/, replacement: fromRoot('./packages/test-utils/src/index.ts') },
];

/** CI also writes a JSON report, from which .ci/run prints a plain "N passed, N failed" line. */
export function reportersFor(name: string): ('default' | ['json', { outputFile: string }])[] {
  if (!process.env.CI) return ['default'];
  return ['default', ['json', { outputFile: `node_modules/.cache/${name}-report.json` }]];
}

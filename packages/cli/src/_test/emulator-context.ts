import { createEmulator, type Emulator, type EmulatorOptions } from '@parley/emulator';
import type { CommandContext } from '../context';
import { testContext } from './test-context';

/** The base URL the in-process emulator answers for (no socket is opened). */
export const BASE_URL = 'http://127.0.0.1:4010/v1';

/** An in-process emulator (frozen clock by default) and a context whose network is that emulator. */
export function emulatorContext(options: EmulatorOptions = {}, env: Record<string, string | undefined> = {}) {
  const emulator: Emulator = createEmulator({ clock: 'frozen', ...options });
  const make = (overrides: Partial<Omit<CommandContext, 'stdout' | 'stderr' | 'style'>> = {}) =>
    testContext({
      env: {
        PARLEY_API_KEY: emulator.sandboxKey,
        PARLEY_BASE_URL: BASE_URL,
        XDG_CONFIG_HOME: '/nonexistent',
        ...env,
      },
      fetch: (request) => emulator.fetch(request),
      ...overrides,
    });
  return { emulator, context: make };
}

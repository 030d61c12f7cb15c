import { EXIT, ExitError } from '../exit-error';

/**
 * `@parley/emulator`, an optional peer of the CLI (h3, srvx, undici), loaded only by the commands
 * that need it (`emulator start`, `scenario run`, `scenario record`). When it is not installed: exit 3
 * with `missing` (how to install it). A package missing inside an installed emulator is not this case:
 * that error stays.
 */
export async function importEmulator(missing: string): Promise<typeof import('@parley/emulator')> {
  try {
    return await import('@parley/emulator');
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (
      code === 'ERR_MODULE_NOT_FOUND' &&
      typeof message === 'string' &&
      message.includes("package '@parley/emulator'")
    ) {
      throw new ExitError(EXIT.config, missing);
    }
    throw error;
  }
}

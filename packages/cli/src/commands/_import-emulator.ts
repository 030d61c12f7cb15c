import { EXIT, ExitError } from '../../exit-error';

/**
 * `@parley/emulator`, an optional peer of the CLI loaded only by the commands that need it; when it
 * is not installed, exit 3 with `missing` (how to install it).
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

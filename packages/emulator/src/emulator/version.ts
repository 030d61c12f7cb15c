/** The emulator's version, as `GET /_emulator/health` reports it. */
export const EMULATOR_VERSION = '0.1.0';

import { version } from '../package.json';

/**
 * The emulator's version, as `GET /_emulator/health` and `--version` report it: read from
 * package.json when the bundle is built, so a release's version bump cannot leave it behind.
 */
export const EMULATOR_VERSION: string = version;

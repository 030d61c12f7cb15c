import { brandError, ParleyError } from './parley-error';

/**
 * A wrong or missing option of `new Parley()` or `waitFor`: no API key, no base URL, a key of
 * the wrong shape. Never carries the key itself.
 */
export class ConfigurationError extends ParleyError {}

/** True for a {@link ConfigurationError}, also from another copy of the package. */
export const isConfigurationError = brandError(ConfigurationError, 'ConfigurationError');

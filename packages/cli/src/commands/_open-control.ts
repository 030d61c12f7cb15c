import { type ControlApi, controlApi } from '../client/control-api';
import { resolveBaseUrl } from '../config/resolve-base-url';
import type { ClientOptions } from '../config/resolve-credentials';
import type { CommandContext } from '../context';
import { EXIT, ExitError } from '../exit-error';

/**
 * The control API of the emulator at the base URL's origin; the base URL needs no API key here.
 * Shared by the commands that talk to the emulator (`parley emulator …`, `parley logs tail`).
 */
export async function openControl(options: ClientOptions, context: CommandContext): Promise<ControlApi> {
  const { baseUrl, source } = await resolveBaseUrl(options, context.env);
  if (!URL.canParse(baseUrl)) {
    throw new ExitError(EXIT.config, `the base URL "${baseUrl}" (from ${source}) is not a URL`);
  }
  return controlApi(baseUrl, context.fetch ?? ((request) => fetch(request)));
}

import { createControlClient } from '../../control-client/create-control-client';
import type { EmulatorControl } from '../../core/control-types';

/**
 * The emulator's control API on the page's own origin: the typed client every other caller uses
 * (`@parley/emulator/control`), so the console spells no `/_emulator` path of its own (but the
 * stream's, which `EventSource` opens: the client has no stream, and a browser reconnects it). A refusal
 * throws an `EmulatorControlError` carrying the API's `code` and `details`.
 */
export const control: EmulatorControl = createControlClient({ baseUrl: location.origin });

import type { Scope, WebhookEventType } from '@parley/sdk';

/** What the server tells the page at load, from the SDK's one definition of each list. */
export interface ConsoleConfig {
  scopes: Scope[];
  eventTypes: WebhookEventType[];
  /** The emulator clock when the page was served: shown before the first call answers. */
  clock: { now: string; mode: 'real' | 'frozen' };
}

/** Reads the config the server embedded in the page (a JSON script element, never executed). */
export function readConsoleConfig(): ConsoleConfig {
  const element = document.getElementById('console-config');
  return JSON.parse(element?.textContent ?? 'null') as ConsoleConfig;
}

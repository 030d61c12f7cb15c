import type { Environment, WebhookEventType } from '@parley/sdk';

/**
 * A seed file (`--seed FILE`, `createEmulator({ seed })`): a team's reproducible setup, created
 * at start and again on every reset.
 *
 * @example
 * { "workspaces": [{ "name": "Acme", "applications": [{ "name": "Shop", "environment": "sandbox",
 *   "keys": [{ "key": "prl_sandbox_0123456789abcdefghijABCDEFGHIJ01" }],
 *   "endpoints": [{ "url": "http://127.0.0.1:3000/webhooks", "events": ["message.status_updated"],
 *                   "secret": "whsec_0123456789abcdefghijABCDEFGHIJ01" }] }] }] }
 */
export interface SeedFile {
  workspaces?: SeedWorkspace[];
}

/** A workspace of a seed; `id` (a UUID) is generated when absent. */
export interface SeedWorkspace {
  id?: string;
  name: string;
  applications?: SeedApplication[];
}

/** An application of a seed workspace. */
export interface SeedApplication {
  id?: string;
  name: string;
  environment: Environment;
  /** Keys with chosen values (`prl_sandbox_…`/`prl_live_…` matching the environment); all scopes by default. */
  keys?: { key: string; scopes?: string[] }[];
  /** Endpoints with a chosen secret (`whsec_` + 32 base62) or a generated one. */
  endpoints?: { url: string; events: WebhookEventType[]; secret?: string; active?: boolean }[];
  /** Simulated connections (live applications only). */
  connections?: { id?: string; phone_number: string; name?: string }[];
}

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
  /** Endpoints with a chosen secret (`whsec_` + 32 base62) or a generated one, and a description. */
  endpoints?: {
    url: string;
    events: WebhookEventType[];
    secret?: string;
    active?: boolean;
    description?: string;
  }[];
  /** Simulated connections (live applications only). */
  connections?: SeedConnection[];
}

/** A simulated business number of a live application of a seed. */
export interface SeedConnection {
  id?: string;
  phone_number: string;
  name?: string;
  /** Templates of its own, listed and sendable after the two every connection carries. */
  templates?: SeedTemplate[];
}

/**
 * A template of a seeded connection. `category` is `UTILITY` unless given; `variable_count` is
 * the highest `{{n}}` placeholder of `body` and, when given, must say the same.
 *
 * @example
 * { "name": "shipping_update", "language": "en", "body": "Hi {{1}}, parcel {{2}} is on its way." }
 */
export interface SeedTemplate {
  name: string;
  language: string;
  category?: string;
  body: string;
  variable_count?: number;
}

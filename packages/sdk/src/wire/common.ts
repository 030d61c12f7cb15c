/** A UTC timestamp on the wire, e.g. `2026-10-14T09:30:00Z`. */
export type Timestamp = string;

/** The API version carried by every webhook envelope (DESIGN §2). */
export const API_VERSION = '2026-10-14' as const;

/** The list envelope of every list answer (DESIGN §2). */
export interface ListEnvelope<Item> {
  object: 'list';
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Query of every list call: `limit` 1–100 (default 20) and an opaque `cursor`. */
export interface ListParams {
  limit?: number;
  cursor?: string;
}

/** `live` or `sandbox` (DESIGN §2 fixes the sandbox word). */
export type Environment = 'live' | 'sandbox';

/** Every scope the API implements, with the call it guards (DESIGN §2). */
export const SCOPES = [
  'system.status.read',
  'connections.read',
  'templates.read',
  'messages.send',
  'messages.read',
  'sandbox.events.create',
] as const;
export type Scope = (typeof SCOPES)[number];

import type { Connection, Environment, Message, WebhookEvent } from '@parley/sdk';
import type { TemplateDefinition } from './sandbox-fixtures';

/** An isolated tenant. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: string;
  /** When the developer agreement was accepted (first live key), or null. */
  agreement_accepted_at: string | null;
  /**
   * The workspace's own clock, given at creation (`POST /_emulator/workspaces {"clock"}`), as last
   * saved: absent for a workspace on the global clock. `offset_ms` is ahead of the wall clock
   * (`real`), `frozen_at` the time it stands at (`frozen`).
   */
  clock?: { mode: 'real' | 'frozen'; offset_ms: number; frozen_at: number };
}

/** An application of a workspace, in one environment. */
export interface ApplicationRecord {
  id: string;
  workspace_id: string;
  name: string;
  environment: Environment;
  created_at: string;
}

/** A simulated live connection (sandbox connections are fixed fixtures, never stored). */
export interface ConnectionRecord extends Connection {
  application_id: string;
  /** Templates of its own, after the two every connection carries (from a seed file). Never on the wire. */
  templates?: TemplateDefinition[];
}

/** A message with what the emulator needs to move it along. */
export interface MessageRecord {
  /** The message as accepted; its current form is `messageAt(record, now)`. */
  message: Message;
  application_id: string;
  workspace_id: string;
  /** Emulator time of acceptance in ms; statuses are a function of age from here. */
  accepted_at: number;
  /** How many of its status steps have been announced with a `message.status_updated` event. */
  announced: number;
  /**
   * A template send's variables, for the conversation view's filled body; absent when there were
   * none (and in records from before they were kept). Never on the wire: spec §3 Message has no
   * `template.variables`.
   */
  variables?: string[];
}

/**
 * A stored idempotent send, as one string: the body's fingerprint (43 characters, see
 * `bodyFingerprint`) followed by the message id. Its age is the message's. Not a speed tuning
 * any more (an object of the two takes the same heap, 0.7 MB more per 100,000 sends): it is the
 * form data dirs already hold, so it stays; only `domain/idempotency.ts` builds and reads it.
 */
export type IdempotencyRecord = string;

/** A recent event and the applications it was routed to. */
export interface EventRecord {
  event: WebhookEvent;
  application_ids: string[];
}

import type { MessageStatus, SendMessageParams, WebhookEventType } from '@parley/sdk';
import type { ChaosKind } from '../domain/chaos-kinds';

// The checked form of a scenario file (docs/scenarios.md). Every step keeps its `path` in the file
// (`steps[3]`) so a report or a failure can point at it.

/** A webhook endpoint the scenario listens with: a real 127.0.0.1 receiver of its sandbox. */
export interface ScenarioEndpoint {
  name: string;
  /** Event types it subscribes to (default: all). */
  events?: WebhookEventType[];
  /** How many deliveries it answers with 500 before answering `status` (a flaky receiver). */
  failFirst: number;
  /** What it answers a verified delivery with, once past `failFirst` (default 204). */
  status: number;
}

/** A `/v1/messages` send; `connection_id` defaults to the sandbox's active connection. */
export interface SendStep {
  kind: 'send';
  path: string;
  name: string | undefined;
  body: SendMessageParams;
  /** The same body sent this many times, one after the other (a burst). */
  repeat: number;
}

/** A customer writes: a synthetic `message.received` from `from` with `text`. */
export interface CustomerStep {
  kind: 'customer';
  path: string;
  from: string;
  text: string;
}

/** The sandbox's clock moves forward: every job that falls due runs, in time order. */
export interface AdvanceStep {
  kind: 'advance';
  path: string;
  ms: number;
  text: string;
}

/** The next `times` matching `/v1` calls of this scenario answer an error instead. */
export interface FaultStep {
  kind: 'fault';
  path: string;
  method: string | null;
  route: string | null;
  times: number;
  status: number;
  code: string;
  retryAfter: number | undefined;
}

/** Webhook chaos on one of the scenario's endpoints (`PUT /_emulator/endpoints/{id}/chaos`). */
export interface ChaosStep {
  kind: 'chaos';
  path: string;
  endpoint: string;
  seed: number | undefined;
  kinds: Partial<Record<ChaosKind, Record<string, number>>>;
}

/** A synthetic event (`POST /v1/sandbox/events`). */
export interface TriggerStep {
  kind: 'trigger';
  path: string;
  type: Exclude<WebhookEventType, 'developer.application.created'>;
  overrides: Record<string, unknown> | undefined;
}

/** The named send's message(s) have reached `status` (by `byMs` from the start, if given). */
export interface ExpectStatusStep {
  kind: 'expect_status';
  path: string;
  message: string;
  status: MessageStatus;
  byMs: number | undefined;
  byText: string | undefined;
  /** The error code the messages must carry (a failed message's `error.code`). */
  error?: string;
}

/** An endpoint received an event of `type` whose fields (dotted paths) have these values. */
export interface ExpectDeliveryStep {
  kind: 'expect_delivery';
  path: string;
  endpoint: string;
  type: WebhookEventType;
  /** The named send's message: `data.message.id` must be its id. */
  message: string | undefined;
  fields: Map<string, unknown>;
  /** Exactly this many matching events (default: at least one, the earliest taken). */
  count: number | undefined;
}

/** A named send's call failed with `code` (and `status`, if given). */
export interface ExpectErrorStep {
  kind: 'expect_error';
  path: string;
  call: string;
  code: string;
  status: number | undefined;
  /** Exactly this many of the named calls failed so (default: at least one). */
  count: number | undefined;
}

/** Every event an endpoint (or every endpoint) received was taken by an `expect_delivery`. */
export interface ExpectNoOtherDeliveriesStep {
  kind: 'expect_no_other_deliveries';
  path: string;
  endpoint: string | undefined;
}

/** One step of a scenario. */
export type ScenarioStep =
  | SendStep
  | CustomerStep
  | AdvanceStep
  | FaultStep
  | ChaosStep
  | TriggerStep
  | ExpectStatusStep
  | ExpectDeliveryStep
  | ExpectErrorStep
  | ExpectNoOtherDeliveriesStep;

/** A checked scenario file. */
export interface Scenario {
  version: 1;
  name: string;
  description: string | undefined;
  /** Where the scenario's frozen clock starts (ISO 8601), else the emulator's time. */
  start: string | undefined;
  /**
   * The kind of application the scenario runs as (default `sandbox`): `live` is a simulated live
   * one with a connection of its own, whose customers' 24 h windows rule text sends.
   */
  application?: 'sandbox' | 'live';
  endpoints: Map<string, ScenarioEndpoint>;
  steps: ScenarioStep[];
  /** The file it was read from, when it was. */
  file: string | undefined;
}

import type { HttpClient } from '../core/_http-client';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request-options';
import type { CreateSandboxEventParams, SandboxEventResult } from '../wire/event';
import { Resource } from './_resource';

/** `parley.sandbox.events`: synthetic webhook events, sandbox keys only. */
export class SandboxEventsResource extends Resource {
  /**
   * `POST /v1/sandbox/events` (scope `sandbox.events.create`): queues one event of `type` to
   * the application's subscribed endpoints, with `overrides` set in it. A live key gets a
   * `PermissionError` (`sandbox_only`).
   */
  create(params: CreateSandboxEventParams, options?: RequestOptions): APIPromise<SandboxEventResult> {
    const json = { type: params.type, ...(params.overrides ? { overrides: params.overrides } : {}) };
    return this.http.request('sandbox/events', { method: 'post', json }, options);
  }
}

/** `parley.sandbox`: sandbox-only helpers. */
export class SandboxResource {
  /** Synthetic webhook events. */
  declare readonly events: SandboxEventsResource;

  constructor(http: HttpClient) {
    this.events = new SandboxEventsResource(http);
  }
}

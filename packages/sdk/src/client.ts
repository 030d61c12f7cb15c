import { type ClientSettings, resolveSettings } from './core/_client-settings';
import { HttpClient } from './core/_http-client';
import type { ParleyOptions } from './core/client-options';
import { ConnectionsResource } from './resources/connections';
import { MessagesResource } from './resources/messages';
import { SandboxResource } from './resources/sandbox-events';
import { StatusResource } from './resources/status';

/**
 * The Parley API client. Every method returns an {@link APIPromise}: await it for the data,
 * or `.withResponse()` for the request id and rate-limit info too.
 *
 * @example
 * const parley = new Parley({ apiKey: process.env.PARLEY_API_KEY, baseUrl: 'http://127.0.0.1:4010/v1' });
 * const status = await parley.status.get();
 * @throws {ConfigurationError} when the key or base URL is missing or malformed.
 */
export class Parley {
  /** `GET /v1/status`. */
  declare readonly status: StatusResource;
  /** Connections and their templates. */
  declare readonly connections: ConnectionsResource;
  /** Send and read messages, wait for a status. */
  declare readonly messages: MessagesResource;
  /** Sandbox-only calls. */
  declare readonly sandbox: SandboxResource;

  readonly #settings: ClientSettings;

  constructor(options: ParleyOptions = {}) {
    this.#settings = resolveSettings(options);
    const http = new HttpClient(this.#settings);
    this.status = new StatusResource(http);
    this.connections = new ConnectionsResource(http);
    this.messages = new MessagesResource(http);
    this.sandbox = new SandboxResource(http);
  }

  /**
   * A new client with this one's settings and `options` over them (`defaultHeaders` replaced,
   * not merged). The two share nothing mutable: changing one never changes the other.
   *
   * @example
   * const patient = parley.withOptions({ timeout: 60_000, maxRetries: 5 });
   */
  withOptions(options: ParleyOptions): Parley {
    return new Parley({ ...this.#settings, ...options });
  }
}

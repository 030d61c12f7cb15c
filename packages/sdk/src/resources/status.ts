import type { HttpClient } from '../core/_http-client';
import type { APIPromise } from '../core/api-promise';
import type { Status } from '../wire/status';

/** `GET /v1/status`: who the key is (scope `system.status.read`). */
export class StatusResource {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The key's application, workspace, environment and scopes. */
  get(): APIPromise<Status> {
    return this.#http.request({ method: 'get', path: 'status' });
  }
}

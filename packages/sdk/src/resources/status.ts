import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request-options';
import type { Status } from '../wire/status';
import { Resource } from './_resource';

/** `GET /v1/status`: who the key is (scope `system.status.read`). */
export class StatusResource extends Resource {
  /** The key's application, workspace, environment and scopes. */
  get(options?: RequestOptions): APIPromise<Status> {
    return this.http.request('status', {}, options);
  }
}

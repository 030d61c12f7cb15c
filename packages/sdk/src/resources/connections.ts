import { path } from '../core/_path';
import type { APIPromise } from '../core/api-promise';
import { type PagePromise, pagePromise } from '../core/page';
import type { ListEnvelope, ListParams } from '../wire/common';
import type { Connection, Template } from '../wire/connection';
import { Resource } from './_resource';

/** Connected business numbers and their templates. */
export class ConnectionsResource extends Resource {
  /**
   * `GET /v1/connections` (scope `connections.read`): one page, also iterable over all.
   *
   * @example
   * for await (const connection of parley.connections.list({ limit: 50 })) console.log(connection.name);
   */
  list(params: ListParams = {}): PagePromise<Connection> {
    return pagePromise((cursor) =>
      this.http.request<ListEnvelope<Connection>>('connections', {
        searchParams: { limit: params.limit, cursor: cursor ?? params.cursor },
      }),
    );
  }

  /** `GET /v1/connections/{id}/templates` (scope `templates.read`, bucket `templates`). */
  listTemplates(connectionId: string): APIPromise<ListEnvelope<Template>> {
    return this.http.request(() => path`connections/${connectionId}/templates`);
  }
}

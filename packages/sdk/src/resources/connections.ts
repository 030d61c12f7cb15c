import { path } from '../core/_path';
import { type PagePromise, pagePromise } from '../core/page';
import type { RequestOptions } from '../core/request-options';
import type { ListEnvelope, ListParams } from '../wire/common';
import type { Connection, Template } from '../wire/connection';
import { Resource } from './_resource';

/** Connected business numbers and their templates. */
export class ConnectionsResource extends Resource {
  /**
   * `GET /v1/connections` (scope `connections.read`): one page, also iterable over all. `options`
   * apply to every page's call.
   *
   * @example
   * for await (const connection of parley.connections.list({ limit: 50 })) console.log(connection.name);
   */
  list(params: ListParams = {}, options?: RequestOptions): PagePromise<Connection> {
    return pagePromise((cursor) =>
      this.http.request<ListEnvelope<Connection>>(
        'connections',
        { searchParams: { limit: params.limit, cursor: cursor ?? params.cursor } },
        options,
      ),
    );
  }

  /**
   * `GET /v1/connections/{id}/templates` (scope `templates.read`, bucket `templates`): one page,
   * also iterable over all. Each page is one call in the `templates` bucket (10 a minute), so
   * read many templates with `limit: 100`.
   *
   * @example
   * for await (const template of parley.connections.listTemplates(connectionId, { limit: 100 })) console.log(template.name);
   */
  listTemplates(
    connectionId: string,
    params: ListParams = {},
    options?: RequestOptions,
  ): PagePromise<Template> {
    return pagePromise((cursor) =>
      this.http.request<ListEnvelope<Template>>(
        () => path`connections/${connectionId}/templates`,
        { searchParams: { limit: params.limit, cursor: cursor ?? params.cursor } },
        options,
      ),
    );
  }
}

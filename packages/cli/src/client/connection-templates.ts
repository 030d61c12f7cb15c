import type { Template } from '@parley/sdk';
import type { ApiSession } from './api-session';

/**
 * Every template of a connection, read page after page. Pages hold 100, the most the API
 * gives: each page is a call in the `templates` bucket, which allows 10 a minute.
 */
export function allTemplates(api: ApiSession, connectionId: string): Promise<Template[]> {
  return api.call(async (client) => {
    const templates: Template[] = [];
    for await (const template of client.connections.listTemplates(connectionId, { limit: 100 })) {
      templates.push(template);
    }
    return templates;
  });
}

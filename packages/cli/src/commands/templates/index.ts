import type { Template } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { renderTable } from '../../output/table';
import { defineCommand } from '../command-module';

/** `parley templates list --connection ID`. */
export interface TemplatesOptions extends ClientOptions {
  connection: string;
}

/** `GET /v1/connections/{id}/templates`: the templates a connection can send. */
export async function listTemplates(options: TemplatesOptions, context: CommandContext): Promise<Template[]> {
  if (!options.connection) throw usageError('missing --connection: see `parley connections list` for ids');
  const api = await openApiSession(options, context);
  const page = await api.call((client) => client.connections.listTemplates(options.connection));
  return page.data;
}

/** The human view: name, language, category, variable count and the body. */
export function renderTemplates(templates: Template[], { style }: CommandContext): string {
  if (templates.length === 0) return 'No templates.';
  return renderTable(
    style,
    ['NAME', 'LANGUAGE', 'CATEGORY', 'VARIABLES', 'BODY'],
    templates.map((template) => [
      template.name,
      template.language,
      template.category,
      String(template.variable_count),
      style.dim(template.body),
    ]),
  );
}

export default defineCommand({ run: listTemplates, render: renderTemplates });

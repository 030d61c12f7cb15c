import type { Template } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import { allTemplates } from '../../client/connection-templates';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { renderTable } from '../../output/table';
import { defineCommand } from '../command-module';

/** `parley templates list --connection ID`. */
export interface TemplatesOptions extends ClientOptions {
  connection: string;
}

/** `GET /v1/connections/{id}/templates`, every page: the templates a connection can send. */
export async function listTemplates(options: TemplatesOptions, context: CommandContext): Promise<Template[]> {
  if (!options.connection) throw usageError('missing --connection: see `parley connections list` for ids');
  return allTemplates(await openApiSession(options, context), options.connection);
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

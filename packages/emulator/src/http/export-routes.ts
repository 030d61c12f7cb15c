import type { H3 } from 'h3';
import { MAX_BUNDLE_BYTES } from '../core/bundle-types';
import type { EmulatorControl } from '../core/control';
import type { EmulatorCore } from '../core/emulator-core';
import { DomainError } from '../domain/domain-error';
import { publishChanges, requestIdOf, sameOriginOnly } from './_control-handler';
import { parseJsonBody, readBodyText, requireJsonContentType } from './_read-body';
import { jsonResponse } from './_respond';

/**
 * `GET /_emulator/export`, `POST /_emulator/import` and `GET /_emulator/har` (docs/emulator.md#export-and-import).
 * The import reads a body of up to {@link MAX_BUNDLE_BYTES}, not the 100 KiB of other calls: a
 * bundle holds the whole state.
 */
export function registerExportRoutes(app: H3, core: EmulatorCore, control: EmulatorControl): void {
  const middleware = [publishChanges(core), sameOriginOnly];
  app.get(
    '/_emulator/export',
    async (event) => {
      const query = event.url.searchParams;
      const workspaceId = query.get('workspace_id');
      const bundle = await control.export({
        ...(workspaceId === null ? {} : { workspaceId }),
        includeSecrets: flagParam(query, 'include_secrets'),
      });
      return jsonResponse(200, bundle, requestIdOf(event));
    },
    { middleware },
  );
  app.post(
    '/_emulator/import',
    async (event) => {
      const read = await readBodyText(event.req, MAX_BUNDLE_BYTES);
      requireJsonContentType(event.req);
      const bundle = parseJsonBody(read);
      return jsonResponse(200, await control.import(bundle), requestIdOf(event));
    },
    { middleware },
  );
  app.get(
    '/_emulator/har',
    async (event) => {
      const query = event.url.searchParams;
      const since = query.get('since');
      const workspaceId = query.get('workspace_id');
      const har = await control.har({
        ...(since === null ? {} : { since }),
        ...(workspaceId === null ? {} : { workspaceId }),
        deliveries: flagParam(query, 'deliveries'),
      });
      return jsonResponse(200, har, requestIdOf(event));
    },
    { middleware },
  );
}

/** A `true`/`false` query parameter (absent: false); anything else is 400 naming it. */
function flagParam(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === 'false') return false;
  if (value === 'true') return true;
  throw new DomainError('validation_error', `"${name}" must be true or false.`, {
    field: name,
    reason: 'invalid_format',
  });
}

import type { Environment, Timestamp } from './common';

/** `GET /v1/status` answer (spec 2.2). */
export interface Status {
  status: 'authenticated';
  application_id: string;
  workspace_id: string;
  environment: Environment;
  /** Every scope the key holds, including ones this API does not implement. */
  scopes: string[];
  timestamp: Timestamp;
  /** The key's scopes that this API implements. */
  capabilities: string[];
  sandbox_external_calls: boolean;
}

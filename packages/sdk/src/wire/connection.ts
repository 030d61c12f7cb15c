import type { Timestamp } from './common';

export type ConnectionStatus = 'active' | 'disconnected';

/** A connected business phone number (spec 2.3, field names DESIGN §2). */
export interface Connection {
  object: 'connection';
  id: string;
  status: ConnectionStatus;
  phone_number: string;
  name: string;
  /** `GREEN` in the sandbox; other platform values pass through unchanged. */
  quality_rating: 'GREEN' | 'YELLOW' | 'RED' | (string & {});
  waba_id: string;
  livemode: boolean;
  created_at: Timestamp;
}

/** A message template of one connection (spec 2.4, field names DESIGN §2). */
export interface Template {
  object: 'template';
  connection_id: string;
  name: string;
  language: string;
  category: 'UTILITY' | (string & {});
  variable_count: number;
  /** Body text with positional placeholders `{{1}}`, `{{2}}`. */
  body: string;
}

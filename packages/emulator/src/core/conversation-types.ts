import type { Connection, Environment, Message, MessageStatus } from '@parley/sdk';

// Types only (the typed client imports them through control-types.ts).

/** One thread of an application: a customer number on one of its connections. */
export interface ConversationSummary {
  connection_id: string;
  /** The customer's number. */
  customer: string;
  /** The newest message's `created_at`. */
  last_message_at: string;
  /** The newest message's text (or template name), for a preview. */
  last_text: string | null;
  last_direction: 'inbound' | 'outbound';
  message_count: number;
}

/** A status a message reached, at the emulator-clock time it reached it. */
export interface ConversationStatusStep {
  status: MessageStatus;
  at: string;
}

/** A message of a thread, with how it got to its status and, for a template, its body. */
export interface ConversationItem {
  message: Message;
  /** Oldest first; an inbound message has its one `received` step. */
  history: ConversationStatusStep[];
  /**
   * A template message's body from the connection's definition, its `{{n}}` placeholders filled
   * with the send's variables (a message stored before they were kept shows the placeholders).
   */
  template_body: string | null;
}

/** The rules of a thread as they stand on the emulator's clock. */
export interface ConversationView {
  application_id: string;
  environment: Environment;
  connection: Connection;
  customer: string;
  /** The application's emulator-clock time. */
  now: string;
  /**
   * The 24 h customer-service window of a live application (null in the sandbox, which has none):
   * open while `remaining_ms` > 0; a free-text reply outside it fails with `outside_messaging_window`.
   */
  window: { open: boolean; opened_at: string | null; expires_at: string | null; remaining_ms: number } | null;
  /** A live workspace's accepted sends today (UTC) and its cap (null in the sandbox). */
  daily_cap: { limit: number; sent_today: number } | null;
  /** When the customer "reads" the app's messages, as the emulator simulates it. */
  read_rule: string;
  /** Oldest first: the newest 200 messages of the thread. */
  items: ConversationItem[];
  /** Messages of the thread before `items` (not shown). */
  earlier: number;
}

/** `GET /_emulator/applications/{id}/conversation`: which thread. */
export interface ConversationQuery {
  connectionId: string;
  number: string;
}

/** `POST /_emulator/applications/{id}/conversation/messages`: a text typed as the customer. */
export interface CustomerMessageInput {
  connection_id: string;
  from: string;
  text: string;
}

import type { Timestamp } from './common';

export type OutboundMessageStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
export type MessageStatus = OutboundMessageStatus | 'received';

/**
 * Message error codes (not HTTP errors): spec 7 and DESIGN §4; `message_undeliverable` is the
 * emulator's failure after `sent` (a sandbox magic recipient), open-ended for codes to come.
 */
export type MessageErrorCode =
  | 'recipient_unreachable'
  | 'outside_messaging_window'
  | 'message_undeliverable'
  | (string & {});

export interface MessageError {
  code: MessageErrorCode;
  message: string;
}

/** A message as the API and webhook `data.message` show it (spec 2.1). */
export interface Message {
  id: string;
  object: 'message';
  direction: 'outbound' | 'inbound';
  connection_id: string;
  /** Recipient in international format; null on inbound. */
  to: string | null;
  /** Sender; null on outbound. */
  from: string | null;
  type: 'template' | 'text';
  text: string | null;
  template: { name: string; language: string } | null;
  status: MessageStatus;
  error: MessageError | null;
  client_reference: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  livemode: boolean;
}

interface SendMessageBase {
  connection_id: string;
  /** Recipient in international format with a leading `+`. */
  to: string;
  /** Your own reference, at most 128 characters, echoed on the message. */
  client_reference?: string;
}

/**
 * A template send: `variables` holds exactly the template's `variable_count` strings, and may be
 * left out for a template without variables (such as `hello_world`), as the API accepts.
 */
export interface SendTemplateMessageParams extends SendMessageBase {
  type: 'template';
  template: { name: string; language: string; variables?: string[] };
  text?: never;
}

/** A text send: 1–4096 characters. */
export interface SendTextMessageParams extends SendMessageBase {
  type: 'text';
  text: string;
  template?: never;
}

/** `POST /v1/messages` body: exactly one of the two shapes. */
export type SendMessageParams = SendTemplateMessageParams | SendTextMessageParams;

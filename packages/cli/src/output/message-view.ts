import type { Message } from '@parley/sdk';
import type { ChalkInstance } from 'chalk';
import { colorStatus } from './status-color';
import { renderFields } from './table';

/** The human view of one message, used by `send` and `messages get`. */
export function renderMessage(style: ChalkInstance, message: Message): string {
  const fields: [string, string][] = [
    ['Message', message.id],
    [
      'Status',
      colorStatus(style, message.status) +
        (message.error ? style.red(` ${message.error.code}: ${message.error.message}`) : ''),
    ],
    [
      message.direction === 'inbound' ? 'From' : 'To',
      (message.direction === 'inbound' ? message.from : message.to) ?? '-',
    ],
    ['Connection', message.connection_id],
    message.template
      ? ['Template', `${message.template.name} (${message.template.language})`]
      : ['Text', message.text ?? ''],
  ];
  if (message.client_reference) fields.push(['Reference', message.client_reference]);
  fields.push(['Created', message.created_at], ['Updated', message.updated_at]);
  return renderFields(style, fields);
}

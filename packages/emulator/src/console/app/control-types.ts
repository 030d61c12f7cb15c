import type { Connection, ListEnvelope, Message, Template, WebhookEvent } from '@parley/sdk';
import type { usage } from '../../core/usage';
import type { ApplicationRecord } from '../../domain/records';
import type { DeliveryView, EndpointView } from '../../webhooks/_webhook-views';

/** The answers of the control API the console reads, typed from the emulator's own definitions. */
export type Application = ApplicationRecord;
export type Endpoint = EndpointView;
export type Delivery = DeliveryView;
export type Usage = ReturnType<typeof usage>;
export type { Connection, ListEnvelope as List, Message, Template, WebhookEvent };

/** `GET /_emulator/clock`. */
export interface ClockView {
  now: string;
  mode: 'real' | 'frozen';
}

/** `POST /_emulator/applications/{id}/keys`: the only answer holding the key. */
export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  scopes: string[];
}

export type { ActivityItem } from '../../core/activity-feed';
export type { ConnectionWithTemplates } from '../../core/connections';

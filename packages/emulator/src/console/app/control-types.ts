import type { ActivityItem } from '../../core/activity-feed';

export type { Connection, ListEnvelope as List, Message, WebhookEvent } from '@parley/sdk';
/**
 * The answers the console reads, by the names its views use: the control client's own types
 * (`@parley/emulator/control`), never a copy.
 */
export type {
  ApplicationView as Application,
  ChaosView,
  ClockView,
  ConnectionWithTemplates,
  DeliveryView as Delivery,
  EndpointView as Endpoint,
  FaultView,
  MagicRecipient,
  UsageView as Usage,
  WorkspaceClockView,
} from '../../core/control-types';
export type { ActivityItem };

/** What an activity item is about: the console reloads only the views that show that kind. */
export type ActivityKind = ActivityItem['kind'];

import { type DeliveryView, type EndpointView, toDeliveryView } from '../webhooks/webhook-service';
import { findApplication } from './applications';
import type { EmulatorCore } from './emulator-core';

/** `POST /_emulator/applications/{id}/endpoints`: the application must exist; the secret is shown once. */
export function createEndpoint(
  core: EmulatorCore,
  applicationId: string,
  input: unknown,
): Promise<EndpointView & { secret: string }> {
  findApplication(core, applicationId);
  return core.webhooks.createEndpoint(applicationId, input);
}

/** `POST /_emulator/endpoints/{id}/test`: a `webhook.test` event to that endpoint alone. */
export function testEndpoint(core: EmulatorCore, id: string): { event_id: string } {
  const { application_id } = core.webhooks.getEndpoint(id);
  const live = core.state.applications[application_id]?.environment === 'live';
  const delivery = core.webhooks.testDelivery(id, live);
  core.queueDeliveries([delivery]);
  return { event_id: delivery.event_id };
}

/** `POST /_emulator/deliveries/{id}/replay`: the same event (same id) delivered again. */
export function replayDelivery(core: EmulatorCore, id: string): DeliveryView {
  const delivery = core.webhooks.replayDelivery(id);
  core.queueDeliveries([delivery]);
  return toDeliveryView(delivery);
}

import type { EmulatorCore, StateParts } from './emulator-core';

/** How many records the emulator holds, as `GET /_emulator/health` and the start banner show them. */
export interface StateCounts {
  workspaces: number;
  applications: number;
  keys: number;
  endpoints: number;
  messages: number;
  /** Deliveries still to be attempted (first attempts and scheduled retries). */
  pending_deliveries: number;
}

/** Counts the records of the current state; only the pending deliveries take a scan. */
export function stateCounts(
  core: StateParts<'workspaces' | 'applications' | 'webhooks'> &
    Pick<EmulatorCore, 'keyCount' | 'messageOrder'>,
): StateCounts {
  const { state } = core;
  let pending = 0;
  for (const delivery of Object.values(state.webhooks.deliveries))
    if (delivery.status === 'pending') pending++;
  return {
    workspaces: Object.keys(state.workspaces).length,
    applications: Object.keys(state.applications).length,
    keys: core.keyCount,
    endpoints: Object.keys(state.webhooks.endpoints).length,
    messages: core.messageOrder.length,
    pending_deliveries: pending,
  };
}

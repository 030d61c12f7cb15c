import type { ClockView, HealthView } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { renderFields } from '../../output/table';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';

/** `parley emulator status`: its health, clock and what it holds. */
export interface EmulatorStatus extends HealthView {
  emulator: string;
  clock: ClockView;
}

/** Asks the emulator at the base URL's origin for its health (with counts) and its clock. */
export async function emulatorStatus(
  options: ClientOptions,
  context: CommandContext,
): Promise<EmulatorStatus> {
  const control = await openControl(options, context);
  const [health, clock] = await Promise.all([control.health(), control.clock()]);
  return { emulator: control.origin, ...health, clock };
}

// A Map: the count names are the server's, and "constructor" must not find Object's.
const COUNT_LABELS = new Map([
  ['workspaces', 'Workspaces'],
  ['applications', 'Applications'],
  ['keys', 'API keys'],
  ['endpoints', 'Endpoints'],
  ['messages', 'Messages'],
  ['pending_deliveries', 'Pending deliveries'],
]);

/** The human view: one field per line, each count on its own. */
function renderEmulatorStatus(status: EmulatorStatus, { style }: CommandContext): string {
  const fields: [string, string][] = [
    ['Emulator', `${status.emulator} (version ${status.version})`],
    ['Health', status.ok ? style.green('ok') : style.red('not ok')],
    ['Clock', `${status.clock.now} (${status.clock.mode})`],
  ];
  for (const [name, count] of Object.entries(status.counts ?? {})) {
    fields.push([COUNT_LABELS.get(name) ?? name, String(count)]);
  }
  if (status.persistence) {
    const persistence = status.persistence;
    fields.push([
      'Data dir',
      persistence.ok ? style.green('ok') : style.red(persistence.error || 'cannot be written'),
    ]);
  }
  return renderFields(style, fields);
}

export default defineCommand({ run: emulatorStatus, render: renderEmulatorStatus });

import type { MagicRecipient } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';

/** The sandbox recipients with a fixed outcome (`GET /_emulator/magic-numbers`). */
export async function magicNumbers(
  options: ClientOptions,
  context: CommandContext,
): Promise<MagicRecipient[]> {
  const control = await openControl(options, context);
  return control.magicNumbers();
}

export default defineCommand({
  run: magicNumbers,
  render: (numbers, { style }) => {
    const width = Math.max(...numbers.map((entry) => entry.behaviour.length));
    return numbers
      .map((entry) => `${style.bold(entry.number)}  ${entry.behaviour.padEnd(width)}  ${entry.description}`)
      .join('\n');
  },
});

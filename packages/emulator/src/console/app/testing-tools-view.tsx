import type { Application } from './control-types';
import { Faults } from './faults';
import { MagicNumbers } from './magic-numbers';
import { WorkspaceClock } from './workspace-clock';

/**
 * The emulator's testing tools (docs/testing-your-app.md): the application's workspace clock,
 * fault injection into /v1 requests, and the magic sandbox recipients.
 */
export function TestingToolsView({ app }: { app: Application }) {
  return (
    <section id="testing" aria-labelledby="testing-title">
      <h2 id="testing-title">Testing tools</h2>
      <WorkspaceClock app={app} />
      <Faults />
      <MagicNumbers />
    </section>
  );
}

import type { SeedFile } from '../store/seed-types';
import type { EmulatorServer } from './start-server';

/** What a start loaded, shown in the banner and added to the `--json` ready line. */
export interface StartSummary {
  /** What the seed file created; null without `--seed`, or when a data dir's state won. */
  seeded: { workspaces: number; applications: number; keys: number; endpoints: number } | null;
  /** What came back from `--data-dir`; null when nothing was there to restore. */
  restored: { messages: number; pending_deliveries: number } | null;
}

/** Counts what the seed created or the data dir restored (a restored state is never seeded). */
export async function startSummary(
  server: EmulatorServer,
  seed: SeedFile | undefined,
): Promise<StartSummary> {
  const { emulator } = server;
  const applications = (seed?.workspaces ?? []).flatMap((workspace) => workspace.applications ?? []);
  const { counts } = await emulator.control.health();
  return {
    seeded:
      seed && !emulator.restored
        ? {
            workspaces: seed.workspaces?.length ?? 0,
            applications: applications.length,
            keys: applications.reduce((sum, app) => sum + (app.keys?.length ?? 0), 0),
            endpoints: applications.reduce((sum, app) => sum + (app.endpoints?.length ?? 0), 0),
          }
        : null,
    restored: emulator.restored
      ? { messages: counts.messages, pending_deliveries: counts.pending_deliveries }
      : null,
  };
}

/** The banner lines about what was loaded, aligned with the banner's other fields; none when nothing was. */
export function summaryLines(
  summary: StartSummary,
  sources: { seedFile?: string | undefined; dataDir?: string | undefined },
): string[] {
  const lines: string[] = [];
  if (summary.seeded) {
    const { workspaces, applications, keys, endpoints } = summary.seeded;
    lines.push(
      `  Seeded        ${[
        plural(workspaces, 'workspace'),
        plural(applications, 'application'),
        plural(keys, 'key'),
        plural(endpoints, 'endpoint'),
      ].join(', ')} from ${sources.seedFile}`,
    );
  }
  if (summary.restored) {
    const { messages, pending_deliveries } = summary.restored;
    lines.push(
      `  Restored      ${plural(messages, 'message')}, ${plural(pending_deliveries, 'pending delivery', 'pending deliveries')} from ${sources.dataDir}`,
    );
    // A data dir's state wins over the seed: say so, or the seed's absence looks like a bug.
    if (sources.seedFile) {
      lines.push(
        `  Seed          ${sources.seedFile} not applied (state restored); POST /_emulator/reset applies it`,
      );
    }
  }
  return lines;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

import { followActivity, type SkippedEvent } from '../../client/activity-stream';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { EXIT } from '../../exit-error';
import { terminalSafeJson } from '../../output/terminal-safe';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { activityLine } from './_activity-line';
import { type ActivityFilterOptions, activityFilter } from './_filter';

/** `parley logs tail` flags. */
export interface TailOptions extends ClientOptions, ActivityFilterOptions {}

// What a skipped event is told as, on stderr; the tail goes on after it.
const SKIPPED: Record<SkippedEvent, string> = {
  oversized: 'Skipped an event over 1 MiB: the rest of it is read without being kept; still following',
  not_an_item:
    'Skipped an event that is not an activity item (its data must be a JSON object with seq and kind)',
};

/** What a tail printed, when Ctrl-C ended it. */
export interface TailSummary {
  printed: number;
}

/**
 * Follows the emulator's activity (`GET /_emulator/stream`) and prints each item that passes the
 * filters as it happens: one line each, or with `--json` the item itself as one JSON line. A line
 * starts with the item's emulator time (UTC), which a frozen or advanced clock sets apart from this
 * machine's: `parley listen` prints both where they differ, and `--help` says which this is. Runs
 * until Ctrl-C (exit 130), reconnecting with `Last-Event-ID` when the stream drops, so a restart
 * of the connection neither loses nor repeats an item.
 */
export async function tail(options: TailOptions, context: CommandContext): Promise<TailSummary> {
  const wanted = activityFilter(options);
  const control = await openControl(options, context);
  const notice = (text: string) => context.stderr.write(`${text}\n`);
  let printed = 0;
  // Events skipped since the last item: each stands for one item, told already.
  let skipped = 0;
  const items = followActivity({
    origin: control.origin,
    fetch: context.fetch ?? ((request) => fetch(request)),
    signal: context.signal,
    onConnection: (state) =>
      notice(
        state === 'connected'
          ? `Following the activity of ${control.origin} (Ctrl-C to stop)`
          : state === 'lost'
            ? 'The activity stream dropped: reconnecting…'
            : 'Reconnected: resuming after the last item received',
      ),
    onSkipped: (why) => {
      skipped++;
      notice(SKIPPED[why]);
    },
  });
  let previous: number | undefined;
  for await (const item of items) {
    // The stream is gapless while connected, and a resume sends what was missed: a jump means the
    // emulator no longer kept it (it keeps 1,000 items), a step back that it restarted.
    if (previous !== undefined) {
      const missed = item.seq - previous - 1 - skipped;
      if (item.seq <= previous) notice('The emulator restarted: its activity starts over');
      else if (missed > 0) {
        notice(`${missed} items were missed while disconnected (the emulator keeps the last 1,000)`);
      }
    }
    previous = item.seq;
    skipped = 0;
    if (!wanted(item)) continue;
    context.stdout.write(`${context.json ? terminalSafeJson(item) : activityLine(item, context.style)}\n`);
    printed++;
  }
  return { printed };
}

export default defineCommand({
  run: tail,
  longRunning: true,
  // Every line went out as it came: nothing more to print at the end.
  render: () => '',
  json: () => undefined,
  // The tail ends only when interrupted.
  exitCode: () => EXIT.interrupted,
});

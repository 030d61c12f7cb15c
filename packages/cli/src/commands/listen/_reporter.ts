import type { CommandContext } from '../../context';
import type { TemporaryEndpoint } from './_control-api';
import type { ForwardResult } from './_forward';

/** One delivery as `listen` reports it. */
export interface DeliveryReport {
  received: Date;
  verification: { ok: true; type: string; id: string } | { ok: false; reason: string; id: string };
  forward: ForwardResult;
  forwardTo: string;
}

/**
 * What `listen` prints. Human: the secret first, a ready line, then one line per delivery and
 * one per answer. `--json`: one JSON object per line. `--print-secret`: stdout carries only the
 * secret; everything else goes to stderr.
 */
export function createListenReporter(context: CommandContext, options: { printSecretOnly: boolean }) {
  const { style } = context;
  const info = options.printSecretOnly ? context.stderr : context.stdout;
  const line = (value: unknown) => context.stdout.write(`${JSON.stringify(value)}\n`);
  return {
    ready({
      endpoint,
      forwardTo,
      applicationId,
    }: {
      endpoint: TemporaryEndpoint;
      forwardTo: string;
      applicationId: string;
    }) {
      if (options.printSecretOnly) context.stdout.write(`${endpoint.secret}\n`);
      if (context.json && !options.printSecretOnly) {
        line({
          ready: true,
          endpoint_id: endpoint.id,
          secret: endpoint.secret,
          forward_to: forwardTo,
          events: endpoint.events,
          application_id: applicationId,
        });
        return;
      }
      if (!options.printSecretOnly) info.write(`Signing secret: ${style.bold(endpoint.secret)}\n`);
      info.write(
        `${style.green('Ready!')} Forwarding ${endpoint.events.length === 6 ? 'all events' : endpoint.events.join(', ')} ` +
          `to ${forwardTo} (endpoint ${endpoint.id}). Ctrl-C to stop.\n`,
      );
    },
    delivery(report: DeliveryReport) {
      const { verification, forward } = report;
      if (context.json && !options.printSecretOnly) {
        line({
          event_id: verification.id,
          type: verification.ok ? verification.type : null,
          verified: verification.ok,
          ...(verification.ok ? {} : { verification_error: verification.reason }),
          received_at: report.received.toISOString(),
          forward: {
            url: report.forwardTo,
            status: forward.status,
            error: forward.error,
            duration_ms: Math.round(forward.durationMs),
          },
        });
        return;
      }
      const time = style.dim(report.received.toTimeString().slice(0, 8));
      const check = verification.ok ? style.green('✓ verified') : style.red(`✗ ${verification.reason}`);
      const type = verification.ok ? style.bold(verification.type) : style.bold('unverified');
      info.write(`${time}  ${type}  ${verification.id}  ${check}\n`);
      const answer =
        forward.status === null
          ? style.red(`✗ ${report.forwardTo} unreachable: ${forward.error}`)
          : `${forward.status >= 200 && forward.status < 300 ? style.green(String(forward.status)) : style.red(String(forward.status))} from ${report.forwardTo}`;
      info.write(`${time}  → ${answer} ${style.dim(`(${Math.round(forward.durationMs)} ms)`)}\n`);
    },
    stopped(removed: boolean) {
      context.stderr.write(
        removed
          ? 'Stopped; temporary endpoint removed.\n'
          : 'Stopped; could not remove the temporary endpoint.\n',
      );
    },
  };
}

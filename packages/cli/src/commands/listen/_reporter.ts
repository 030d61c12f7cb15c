import type { TemporaryEndpoint } from '../../client/control-api';
import type { CommandContext } from '../../context';
import { terminalSafeData, terminalSafeJson } from '../../output/terminal-safe';
import { looksLikeVerificationFailure } from './_app-answer';
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
 * one per answer (with the start of a 4xx answer, and a hint when it reads like a failed
 * signature check). `--json`: one JSON object per line.
 */
export function createListenReporter(context: CommandContext) {
  const { style } = context;
  const info = context.stdout;
  const line = (value: unknown) => context.stdout.write(`${terminalSafeJson(value)}\n`);
  return {
    ready(started: { endpoint: TemporaryEndpoint; forwardTo: string; applicationId: string }) {
      // The endpoint is the server's answer: the human lines print a terminal-safe copy.
      const { endpoint, forwardTo, applicationId } = context.json ? started : terminalSafeData(started);
      if (context.json) {
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
      info.write(`Signing secret: ${style.bold(endpoint.secret)}\n`);
      info.write(
        `${style.green('Ready!')} Forwarding ${endpoint.events.length === 6 ? 'all events' : endpoint.events.join(', ')} ` +
          `to ${forwardTo} (endpoint ${endpoint.id}). Ctrl-C to stop.\n`,
      );
    },
    delivery(received: DeliveryReport) {
      // Event ids, reasons and the app's answer come from outside: the human lines print a copy
      // with every string terminal-safe.
      const report = context.json ? received : terminalSafeData(received);
      const { verification, forward } = report;
      const staleSecret = looksLikeVerificationFailure(received.forward.status, received.forward.body);
      if (context.json) {
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
            body: forward.body,
            stale_secret_suspected: staleSecret,
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
      const indent = ' '.repeat(10);
      if (forward.body) info.write(`${indent}${style.dim('answer:')} ${forward.body}\n`);
      if (staleSecret) {
        info.write(
          `${indent}${style.yellow('Your app refused the signature: its PARLEY_WEBHOOK_SECRET may be stale.')} ` +
            `This listen signs with the secret printed above (\`parley listen --forward-to ${report.forwardTo} --print-secret\`)\n`,
        );
      }
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

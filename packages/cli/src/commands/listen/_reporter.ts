import type { TemporaryEndpoint } from '../../client/control-api';
import type { CommandContext } from '../../context';
import { terminalSafeData, terminalSafeJson } from '../../output/terminal-safe';
import { looksLikeVerificationFailure } from './_app-answer';
import type { ForwardResult } from './_forward';

/** One delivery as `listen` reports it. */
export interface DeliveryReport {
  /** This machine's time when it arrived (deliveries are signed with this time). */
  received: Date;
  /** The emulator's time then (ISO), when it could tell: after an advance, not this machine's. */
  emulatorAt: string | undefined;
  verification: { ok: true; type: string; id: string } | { ok: false; reason: string; id: string };
  forward: ForwardResult;
  forwardTo: string;
}

/**
 * What `listen` prints. Human: the secret first, a ready line, then one line per delivery and
 * one per answer (with the start of a 4xx answer, and a hint when it reads like a failed
 * signature check). `--json`: one JSON object per line. Times are UTC, as `parley logs tail`
 * prints them: this machine's, and the emulator's beside it where they differ (a frozen or
 * advanced clock), since the tail shows the emulator's.
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
          emulator_at: report.emulatorAt ?? null,
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
      const wall = clockTime(report.received.toISOString());
      const time = style.dim(wall);
      const check = verification.ok ? style.green('✓ verified') : style.red(`✗ ${verification.reason}`);
      const type = verification.ok ? style.bold(verification.type) : style.bold('unverified');
      const emulator = report.emulatorAt === undefined ? wall : clockTime(report.emulatorAt);
      const emulatorTime = emulator === wall ? '' : `  ${style.dim(`(emulator clock ${emulator})`)}`;
      info.write(`${time}  ${type}  ${verification.id}  ${check}${emulatorTime}\n`);
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
    registeredAgain(again: {
      endpoint: TemporaryEndpoint;
      previousId: string | undefined;
      forwardTo: string;
    }) {
      const { endpoint, previousId, forwardTo } = context.json ? again : terminalSafeData(again);
      if (context.json) {
        line({
          registered_again: true,
          reason: 'reset',
          endpoint_id: endpoint.id,
          previous_endpoint_id: previousId ?? null,
          secret: endpoint.secret,
        });
        return;
      }
      info.write(
        `${style.yellow('The emulator was reset')}, which removed endpoint ${previousId ?? '?'}: registered it again ` +
          `(endpoint ${endpoint.id}), same secret. Still forwarding to ${forwardTo}.\n`,
      );
    },
    /** `true`: removed now; `false`: could not be; `gone`: the emulator's reset had removed it. */
    stopped(removed: boolean | 'gone') {
      context.stderr.write(
        removed === 'gone'
          ? "Stopped; the emulator's reset had already removed the temporary endpoint.\n"
          : removed
            ? 'Stopped; temporary endpoint removed.\n'
            : 'Stopped; could not remove the temporary endpoint.\n',
      );
    },
  };
}

/** `HH:MM:SS` of an ISO time, in UTC; `--:--:--` when it is none. */
function clockTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT(\d\d:\d\d:\d\d)/.exec(iso)?.[1] ?? '--:--:--';
}

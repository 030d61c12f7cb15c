import { open } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { isAPIError, isParleyError, type Message, type MessageStatus, type WebhookEvent } from '@parley/sdk';
import type { ChaosInput } from '../core/control-types';
import { createEmulator, type Emulator } from '../create-emulator';
import { formatDuration } from '../domain/duration';
import { createSandbox, type Sandbox } from '../sandbox/create-sandbox';
import type { SandboxReceiver } from '../sandbox/sandbox-receiver';
import { checkScenarioValue, MAX_SCENARIO_BYTES, parseScenario, ScenarioFileError } from './parse-scenario';
import type { Scenario, ScenarioStep } from './scenario-types';

/** Options of {@link runScenario}. */
export interface RunScenarioOptions {
  /** The emulator to run in (a workspace of its own is made there); default: a new in-process one, closed after. */
  emulator?: Emulator;
  /** Throw a {@link ScenarioFailedError} when an expectation fails (default true); false: only the report says so. */
  throwOnFailure?: boolean;
}

/** How one step went, at which sandbox time. */
export interface ScenarioStepReport {
  /** 1-based, as people count steps. */
  step: number;
  /** Its path in the file: `steps[3]`. */
  path: string;
  kind: ScenarioStep['kind'];
  /** What it did, in a few words: `send welcome ×1`, `advance 5s`. */
  label: string;
  /** The sandbox's time after it, from the scenario's start (ms). */
  elapsed_ms: number;
  outcome: 'passed' | 'failed';
  /** Why it failed: what was expected, and what was there instead. */
  difference?: string;
}

/** What {@link runScenario} found. */
export interface ScenarioReport {
  name: string;
  file: string | null;
  passed: boolean;
  workspace_id: string;
  /** The sandbox clock's start (ISO 8601). */
  started_at: string;
  steps: ScenarioStepReport[];
  /** The failed steps again, each naming its step and path (a send's call failure unclaimed by an expect_error too). */
  failures: { step: number; path: string; message: string }[];
}

/** A scenario whose expectations did not all hold; `report` has every step. */
export class ScenarioFailedError extends Error {
  readonly report: ScenarioReport;

  constructor(report: ScenarioReport) {
    super(
      `scenario ${JSON.stringify(report.name)} failed:\n${report.failures
        .map((failure) => `  step ${failure.step} (${failure.path}): ${failure.message}`)
        .join('\n')}`,
    );
    this.name = 'ScenarioFailedError';
    this.report = report;
  }
}

/** A scenario file's path, its parsed form, or an object written in code. */
export type ScenarioInput = string | Scenario | Record<string, unknown>;

/** Reads and checks a scenario file (YAML): a regular file, read bounded ({@link MAX_SCENARIO_BYTES}). */
export async function loadScenario(file: string): Promise<Scenario> {
  const tooLarge = () =>
    new ScenarioFileError(
      [{ path: '(file)', line: undefined, message: `is larger than ${MAX_SCENARIO_BYTES} bytes` }],
      file,
    );
  const handle = await open(file, 'r');
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw new ScenarioFileError(
        [{ path: '(file)', line: undefined, message: 'is not a regular file' }],
        file,
      );
    }
    if (stats.size > MAX_SCENARIO_BYTES) throw tooLarge();
    // One byte past the bound tells a file that grew since the stat.
    const buffer = Buffer.alloc(MAX_SCENARIO_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_SCENARIO_BYTES) throw tooLarge();
    }
    return parseScenario(buffer.subarray(0, length).toString('utf8'), file);
  } finally {
    await handle.close();
  }
}

const isScenario = (input: Exclude<ScenarioInput, string>): input is Scenario =>
  (input as Partial<Scenario>).endpoints instanceof Map;

const RANK = new Map<MessageStatus, number>([
  ['queued', 0],
  ['sent', 1],
  ['delivered', 2],
  ['read', 3],
]);
// Reaching `delivered` is passing it too: a message already `read` was delivered.
function reached(actual: MessageStatus, wanted: MessageStatus): boolean {
  if (actual === wanted) return true;
  const a = RANK.get(actual);
  const w = RANK.get(wanted);
  return a !== undefined && w !== undefined && a >= w;
}

/** A send's call: its message, or how it failed (claimed once an `expect_error` names it). */
interface Call {
  step: number;
  path: string;
  message?: Message;
  error?: { code: string; status: number | undefined; message: string };
  claimed: boolean;
}

// A value at a dotted path of an event (an id never indexes a plain object: own fields only).
function at(event: unknown, path: string): unknown {
  let value: unknown = event;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));

/**
 * Runs a scenario (docs/scenarios.md) in a workspace of its own with a frozen clock of its own,
 * step by step: sends through the SDK (no retries), customer messages, clock advances, faults and
 * chaos, sandbox events, and its expectations. Resolves with the step-by-step report; throws a
 * {@link ScenarioFailedError} naming the step, its path and the difference when an expectation
 * fails (unless `throwOnFailure: false`), and a {@link ScenarioFileError} for an invalid file.
 *
 * @example
 * import { runScenario } from '@parley/emulator/vitest';
 * test('a template send is delivered', () => runScenario('scenarios/template-delivered.yaml'));
 */
export async function runScenario(
  input: ScenarioInput,
  options: RunScenarioOptions = {},
): Promise<ScenarioReport> {
  const scenario =
    typeof input === 'string'
      ? await loadScenario(input)
      : isScenario(input)
        ? input
        : checkScenarioValue(input);
  const ownEmulator = options.emulator === undefined;
  const emulator = options.emulator ?? createEmulator({ clock: 'frozen' });
  try {
    await emulator.ready;
    const report = await runIn(emulator, scenario);
    if (!report.passed && options.throwOnFailure !== false) throw new ScenarioFailedError(report);
    return report;
  } finally {
    if (ownEmulator) await emulator.close();
  }
}

async function runIn(emulator: Emulator, scenario: Scenario): Promise<ScenarioReport> {
  const sandbox = await createSandbox(emulator, {
    name: `scenario: ${scenario.name}`,
    ...(scenario.start === undefined ? {} : { now: scenario.start }),
    client: { maxRetries: 0 },
    ...(scenario.application === 'live' ? { environment: 'live' as const } : {}),
  });
  const faults: string[] = [];
  try {
    return await new Run(emulator, sandbox, scenario, faults).all();
  } finally {
    await sandbox.dispose();
    for (const id of faults) await emulator.control.deleteFault(id).catch(() => undefined);
  }
}

class StepFailure extends Error {}

// A live scenario's simulated business number (the emulator's live simulation takes any).
const LIVE_NUMBER = '+14155550100';

class Run {
  private readonly start: number;
  private readonly receivers = new Map<string, SandboxReceiver>();
  private readonly claimed = new Map<string, Set<number>>();
  private readonly calls = new Map<string, Call[]>();
  private readonly unnamed: Call[] = [];
  private readonly report: ScenarioReport;

  constructor(
    private readonly emulator: Emulator,
    private readonly sandbox: Sandbox,
    private readonly scenario: Scenario,
    private readonly faults: string[],
  ) {
    this.start = sandbox.clock.now();
    this.report = {
      name: scenario.name,
      file: scenario.file ?? null,
      passed: true,
      workspace_id: sandbox.workspaceId,
      started_at: new Date(this.start).toISOString(),
      steps: [],
      failures: [],
    };
  }

  /** A live scenario's own connection: its sends' default, where its customers write. */
  private liveConnection: string | undefined;

  async all(): Promise<ScenarioReport> {
    if (this.scenario.application === 'live') {
      const connection = await this.emulator.control.createConnection(this.sandbox.applicationId, {
        phone_number: LIVE_NUMBER,
        name: 'scenario',
      });
      this.liveConnection = connection.id;
    }
    for (const endpoint of this.scenario.endpoints.values()) {
      let answered = 0;
      const receiver = await this.sandbox.receiver({
        ...(endpoint.events ? { events: endpoint.events } : {}),
        respond: () => (answered++ < endpoint.failFirst ? 500 : endpoint.status),
      });
      this.receivers.set(endpoint.name, receiver);
      this.claimed.set(endpoint.name, new Set());
    }
    for (const [index, step] of this.scenario.steps.entries()) {
      let difference: string | undefined;
      try {
        await this.run(step, index + 1);
        await this.emulator.idle();
      } catch (error) {
        difference =
          error instanceof StepFailure
            ? error.message
            : `the step could not run: ${isParleyError(error) || error instanceof Error ? error.message : String(error)}`;
      }
      this.record(index + 1, step, difference);
    }
    for (const call of [...this.unnamed, ...[...this.calls.values()].flat()]) {
      if (call.error && !call.claimed) {
        this.fail(
          call.step,
          call.path,
          `the call failed with ${call.error.code} (${call.error.status ?? 'no status'}: ${call.error.message}) and no expect_error names it`,
        );
      }
    }
    return this.report;
  }

  private record(step: number, value: ScenarioStep, difference: string | undefined) {
    this.report.steps.push({
      step,
      path: value.path,
      kind: value.kind,
      label: label(value),
      elapsed_ms: this.sandbox.clock.now() - this.start,
      outcome: difference === undefined ? 'passed' : 'failed',
      ...(difference === undefined ? {} : { difference }),
    });
    if (difference !== undefined) this.fail(step, value.path, difference);
  }

  private fail(step: number, path: string, message: string) {
    this.report.passed = false;
    this.report.failures.push({ step, path, message });
  }

  private async run(step: ScenarioStep, number: number): Promise<void> {
    const { sandbox } = this;
    switch (step.kind) {
      case 'send': {
        const calls: Call[] = [];
        for (let i = 0; i < step.repeat; i++) {
          const call: Call = { step: number, path: step.path, claimed: false };
          try {
            call.message = await sandbox.parley.messages.send(
              step.body.connection_id === undefined && this.liveConnection !== undefined
                ? { ...step.body, connection_id: this.liveConnection }
                : step.body,
            );
          } catch (error) {
            if (!isParleyError(error)) throw error;
            call.error = isAPIError(error)
              ? { code: error.code, status: error.status, message: error.message }
              : { code: error.name, status: undefined, message: error.message };
          }
          calls.push(call);
        }
        if (step.name === undefined) this.unnamed.push(...calls);
        else this.calls.set(step.name, calls);
        return;
      }
      case 'customer':
        if (this.liveConnection !== undefined) {
          await this.emulator.control.messageAsCustomer(sandbox.applicationId, {
            connection_id: this.liveConnection,
            from: step.from,
            text: step.text,
          });
          return;
        }
        await sandbox.trigger('message.received', {
          'data.message.from': step.from,
          'data.message.text': step.text,
        });
        return;
      case 'advance':
        await sandbox.advance(step.ms);
        return;
      case 'fault': {
        const fault = await this.emulator.control.createFault({
          method: step.method,
          path: step.route,
          key_id: sandbox.keyId,
          times: step.times,
          fault: {
            status: step.status,
            code: step.code,
            ...(step.retryAfter === undefined ? {} : { retry_after: step.retryAfter }),
          },
        });
        this.faults.push(fault.id);
        return;
      }
      case 'chaos':
        await this.emulator.control.setChaos(this.receivers.get(step.endpoint)!.endpointId, {
          ...(step.kinds as ChaosInput),
          ...(step.seed === undefined ? {} : { seed: step.seed }),
        });
        return;
      case 'trigger':
        await sandbox.trigger(step.type, step.overrides as never);
        return;
      case 'expect_status':
        return this.expectStatus(step);
      case 'expect_delivery':
        return this.expectDelivery(step);
      case 'expect_error':
        return this.expectError(step);
      case 'expect_no_other_deliveries':
        return this.expectNoOther(step);
    }
  }

  private async expectStatus(step: Extract<ScenarioStep, { kind: 'expect_status' }>) {
    const calls = this.calls.get(step.message) ?? [];
    const messages = calls.flatMap((call) => (call.message ? [call.message] : []));
    if (messages.length === 0) {
      const error = calls.find((call) => call.error)?.error;
      throw new StepFailure(
        `expected ${step.message} to reach ${step.status}, but its send failed${error ? ` with ${error.code}` : ''}: no message`,
      );
    }
    if (step.byMs !== undefined) {
      const deadline = this.start + step.byMs;
      const now = this.sandbox.clock.now();
      if (now > deadline) {
        throw new StepFailure(
          `by ${step.byText} is already past: the clock is at +${formatDuration(now - this.start)}; put this step before the advance`,
        );
      }
      // The status a message has "by" a time is the one it has when the clock reaches it.
      if (deadline > now) {
        await this.sandbox.advance(deadline - now);
        await this.emulator.idle();
      }
    }
    const wrong: string[] = [];
    for (const message of messages) {
      const current = await this.sandbox.parley.messages.get(message.id);
      if (
        !reached(current.status, step.status) ||
        (step.error !== undefined && current.error?.code !== step.error)
      ) {
        wrong.push(`${message.id} is ${current.status}${current.error ? ` (${current.error.code})` : ''}`);
      }
    }
    if (wrong.length > 0) {
      const when = `+${formatDuration(this.sandbox.clock.now() - this.start)}`;
      throw new StepFailure(
        `expected ${step.message} to have reached ${step.status}${step.error ? ` (${step.error})` : ''}${step.byText ? ` by ${step.byText}` : ''}; at ${when} ${wrong.slice(0, 5).join(', ')}`,
      );
    }
  }

  private async expectDelivery(step: Extract<ScenarioStep, { kind: 'expect_delivery' }>) {
    const receiver = this.receivers.get(step.endpoint)!;
    const claimed = this.claimed.get(step.endpoint)!;
    const fields = new Map(step.fields);
    if (step.message !== undefined) {
      const message = this.calls.get(step.message)?.find((call) => call.message)?.message;
      if (!message) throw new StepFailure(`${step.message} has no message: its send failed`);
      fields.set('data.message.id', message.id);
    }
    const received = receiver.received;
    const candidates = received.flatMap((event, index) =>
      claimed.has(index) || event.type !== step.type ? [] : [{ event, index }],
    );
    const matches = candidates.filter(({ event }) =>
      [...fields].every(([path, value]) => isDeepStrictEqual(at(event, path), value)),
    );
    const wanted = [...fields].map(([path, value]) => `${path} = ${show(value)}`).join(', ');
    const expected = `${step.type}${wanted ? ` with ${wanted}` : ''}`;
    if (step.count === undefined ? matches.length === 0 : matches.length !== step.count) {
      const seen = candidates
        .slice(0, 5)
        .map(
          ({ event }) =>
            `${event.id}: ${[...fields.keys()].map((path) => `${path} = ${show(at(event, path))}`).join(', ') || 'no fields asked'}`,
        );
      throw new StepFailure(
        `expected ${step.count === undefined ? 'a' : `exactly ${step.count}`} ${expected} at ${step.endpoint}; ` +
          `${matches.length} matched of ${candidates.length} ${step.type} not yet taken${seen.length > 0 ? ` (${seen.join('; ')})` : ''}`,
      );
    }
    const taken =
      step.count === undefined
        ? [
            matches.reduce((earliest, each) =>
              each.event.created_at < earliest.event.created_at ? each : earliest,
            ),
          ]
        : matches;
    for (const { index } of taken) claimed.add(index);
  }

  private expectError(step: Extract<ScenarioStep, { kind: 'expect_error' }>) {
    const calls = this.calls.get(step.call) ?? [];
    const matching = calls.filter(
      (call) =>
        call.error?.code === step.code && (step.status === undefined || call.error.status === step.status),
    );
    for (const call of matching) call.claimed = true;
    if (step.count === undefined ? matching.length === 0 : matching.length !== step.count) {
      const outcomes = new Map<string, number>();
      for (const call of calls) {
        const key = call.error
          ? `failed with ${call.error.code} (${call.error.status ?? 'no status'})`
          : 'succeeded';
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      const seen = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(', ');
      throw new StepFailure(
        `expected ${step.count === undefined ? 'a' : `exactly ${step.count}`} call of ${step.call} to fail with ${step.code}${step.status ? ` (${step.status})` : ''}; of ${calls.length}: ${seen}`,
      );
    }
    return Promise.resolve();
  }

  private async expectNoOther(step: Extract<ScenarioStep, { kind: 'expect_no_other_deliveries' }>) {
    const names = step.endpoint === undefined ? [...this.receivers.keys()] : [step.endpoint];
    const others: string[] = [];
    for (const name of names) {
      const claimed = this.claimed.get(name)!;
      this.receivers.get(name)!.received.forEach((event: WebhookEvent, index) => {
        if (!claimed.has(index)) others.push(`${name} got ${event.type} ${event.id}${statusOf(event)}`);
      });
    }
    if (others.length > 0) {
      throw new StepFailure(
        `expected no other deliveries; ${others.length} not taken by an expect_delivery: ${others.slice(0, 10).join('; ')}`,
      );
    }
  }
}

function statusOf(event: WebhookEvent): string {
  const status = at(event, 'data.message.status');
  return typeof status === 'string' ? ` (data.message.status ${status})` : '';
}

function label(step: ScenarioStep): string {
  switch (step.kind) {
    case 'send':
      return `send${step.name ? ` ${step.name}` : ''} to ${step.body.to}${step.repeat > 1 ? ` ×${step.repeat}` : ''}`;
    case 'customer':
      return `customer ${step.from} writes`;
    case 'advance':
      return `advance ${step.text}`;
    case 'fault':
      return `fault ${step.method ?? '*'} ${step.route ?? '/v1/*'} → ${step.status} ${step.code} ×${step.times}`;
    case 'chaos':
      return `chaos on ${step.endpoint}: ${Object.keys(step.kinds).join(', ')}`;
    case 'trigger':
      return `trigger ${step.type}`;
    case 'expect_status':
      return `expect ${step.message} ${step.status}${step.byText ? ` by ${step.byText}` : ''}`;
    case 'expect_delivery':
      return `expect ${step.type} at ${step.endpoint}${step.count === undefined ? '' : ` ×${step.count}`}`;
    case 'expect_error':
      return `expect ${step.call} to fail with ${step.code}`;
    case 'expect_no_other_deliveries':
      return `expect no other deliveries${step.endpoint ? ` at ${step.endpoint}` : ''}`;
  }
}

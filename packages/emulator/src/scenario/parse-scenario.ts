import {
  SANDBOX_EVENT_TYPES,
  type SendMessageParams,
  sandboxEventOverrideProblem,
  WEBHOOK_EVENT_TYPES,
} from '@parley/sdk';
import { LineCounter, parseDocument } from 'yaml';
import { CHAOS_KINDS } from '../domain/chaos-kinds';
import { readDuration } from '../domain/duration';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import type { Scenario, ScenarioEndpoint, ScenarioStep } from './scenario-types';

/** One thing wrong in a scenario file: where (`steps[2].send.body`, and its line) and what. */
export interface ScenarioIssue {
  path: string;
  /** 1-based line in the file, when the path is in it. */
  line: number | undefined;
  message: string;
}

/** A scenario file that cannot run: every issue found, each naming its path in the file. */
export class ScenarioFileError extends Error {
  readonly issues: readonly ScenarioIssue[];
  readonly file: string | undefined;

  constructor(issues: readonly ScenarioIssue[], file: string | undefined) {
    const where = file === undefined ? 'scenario' : file;
    super(
      `${where} is not a valid scenario:\n${issues
        .map(
          (issue) =>
            `  ${issue.path}${issue.line === undefined ? '' : ` (line ${issue.line})`}: ${issue.message}`,
        )
        .join('\n')}`,
    );
    this.name = 'ScenarioFileError';
    this.issues = issues;
    this.file = file;
  }
}

/** The largest scenario file read: far past any hand-written one. */
export const MAX_SCENARIO_BYTES = 1_048_576;
const MAX_STEPS = 1_000;
const MAX_REPEAT = 1_000;
const MAX_ISSUES = 50;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
const STEP_KINDS = [
  'send',
  'customer',
  'advance',
  'fault',
  'chaos',
  'trigger',
  'expect_status',
  'expect_delivery',
  'expect_error',
  'expect_no_other_deliveries',
] as const;
const PHONE = /^\+[0-9]{8,15}$/;

type Segment = string | number;
type Fields = Record<string, unknown>;

const formatPath = (path: readonly Segment[]) =>
  path.reduce<string>(
    (text, segment) =>
      typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? segment : `${text}.${segment}`,
    '',
  ) || '(file)';

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Collects every issue of a file, so one run of `parley scenario run` lists them all.
class Check {
  readonly issues: { path: Segment[]; message: string }[] = [];

  fail(path: Segment[], message: string): undefined {
    if (this.issues.length < MAX_ISSUES) this.issues.push({ path, message });
    return undefined;
  }

  object(value: unknown, path: Segment[], allowed: readonly string[]): Fields | undefined {
    if (!isObject(value)) return this.fail(path, `must be a mapping (${allowed.join(', ')})`);
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail([...path, key], `unknown field; use ${allowed.join(', ')}`);
    }
    return value;
  }

  string(value: unknown, path: Segment[], rule = 'a string', pattern?: RegExp): string | undefined {
    if (
      typeof value !== 'string' ||
      value.length === 0 ||
      value.length > 4096 ||
      (pattern && !pattern.test(value))
    )
      return this.fail(path, `must be ${rule}`);
    return value;
  }

  whole(value: unknown, path: Segment[], min: number, max: number): number | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      return this.fail(path, `must be a whole number from ${min} to ${max}`);
    return value;
  }

  oneOf<T extends string>(value: unknown, path: Segment[], values: readonly T[]): T | undefined {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
      return this.fail(path, `must be one of ${values.join(', ')}`);
    return value as T;
  }

  duration(value: unknown, path: Segment[]): { ms: number; text: string } | undefined {
    if (typeof value !== 'string') return this.fail(path, 'must be a duration such as 5s, 10m, 1h30m');
    const reading = readDuration(value);
    return reading.ok ? { ms: reading.ms, text: value.trim() } : this.fail(path, reading.message);
  }
}

/**
 * Reads a scenario file's text (YAML, or JSON, which is YAML) and checks it whole: a
 * {@link ScenarioFileError} lists every issue with its path in the file and its line.
 *
 * @example
 * const scenario = parseScenario(await readFile('send.yaml', 'utf8'), 'send.yaml');
 */
export function parseScenario(text: string, file?: string): Scenario {
  if (Buffer.byteLength(text) > MAX_SCENARIO_BYTES) {
    throw new ScenarioFileError(
      [{ path: '(file)', line: undefined, message: `is larger than ${MAX_SCENARIO_BYTES} bytes` }],
      file,
    );
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ScenarioFileError(
      document.errors.slice(0, MAX_ISSUES).map((error) => ({
        path: '(file)',
        line: lines.linePos(error.pos[0]).line,
        message: `is not valid YAML: ${error.message.split('\n')[0]}`,
      })),
      file,
    );
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ScenarioFileError(
      [{ path: '(file)', line: undefined, message: String((error as Error).message) }],
      file,
    );
  }
  const check = new Check();
  const scenario = checkScenario(value, check, file);
  if (check.issues.length > 0 || scenario === undefined) {
    throw new ScenarioFileError(
      check.issues.map((issue) => {
        // A missing field has no node: the line of the nearest mapping that holds the path.
        let range: [number, number, number] | undefined;
        for (let length = issue.path.length; range === undefined && length >= 0; length--) {
          const node = document.getIn(issue.path.slice(0, length), true) as
            | { range?: [number, number, number] }
            | undefined;
          range = node?.range;
        }
        return {
          path: formatPath(issue.path),
          line: range ? lines.linePos(range[0]).line : undefined,
          message: issue.message,
        };
      }),
      file,
    );
  }
  return scenario;
}

/** Checks an already parsed scenario (an object written in code, as `runScenario` takes it). */
export function checkScenarioValue(value: unknown, file?: string): Scenario {
  const check = new Check();
  const scenario = checkScenario(value, check, file);
  if (check.issues.length > 0 || scenario === undefined) {
    throw new ScenarioFileError(
      check.issues.map((issue) => ({
        path: formatPath(issue.path),
        line: undefined,
        message: issue.message,
      })),
      file,
    );
  }
  return scenario;
}

function checkScenario(value: unknown, check: Check, file: string | undefined): Scenario | undefined {
  const top = check.object(
    value,
    [],
    ['version', 'name', 'description', 'start', 'application', 'endpoints', 'steps'],
  );
  if (!top) return undefined;
  if (top.version !== 1) check.fail(['version'], 'must be 1');
  const name = check.string(top.name, ['name'], 'a name of 1 to 200 characters', /^[^\n]{1,200}$/);
  const description =
    top.description === undefined ? undefined : check.string(top.description, ['description']);
  let start: string | undefined;
  if (top.start !== undefined) {
    start = check.string(top.start, ['start'], 'an ISO 8601 time, e.g. 2026-11-02T09:00:00Z');
    if (start !== undefined && Number.isNaN(Date.parse(start)))
      check.fail(['start'], 'must be an ISO 8601 time, e.g. 2026-11-02T09:00:00Z');
  }
  const application =
    top.application === undefined
      ? 'sandbox'
      : check.oneOf(top.application, ['application'], ['sandbox', 'live'] as const);
  const endpoints = checkEndpoints(top.endpoints, check);
  const steps: ScenarioStep[] = [];
  if (!Array.isArray(top.steps) || top.steps.length === 0 || top.steps.length > MAX_STEPS) {
    check.fail(['steps'], `must be a list of 1 to ${MAX_STEPS} steps`);
  } else {
    const sends = new Set<string>();
    top.steps.forEach((raw, index) => {
      const step = checkStep(raw, index, check, endpoints, sends, application === 'live');
      if (step) steps.push(step);
    });
  }
  if (check.issues.length > 0 || name === undefined) return undefined;
  return {
    version: 1,
    name,
    description,
    start,
    ...(application === 'live' ? { application } : {}),
    endpoints,
    steps,
    file,
  };
}

function checkEndpoints(value: unknown, check: Check): Map<string, ScenarioEndpoint> {
  const endpoints = new Map<string, ScenarioEndpoint>();
  if (value === undefined) return endpoints;
  if (!isObject(value)) {
    check.fail(['endpoints'], 'must be a mapping of endpoint names to their settings');
    return endpoints;
  }
  for (const [name, raw] of Object.entries(value)) {
    const path = ['endpoints', name];
    if (!NAME.test(name))
      check.fail(path, 'an endpoint name is a letter then letters, digits, _ or - (64 at most)');
    const settings = raw === null ? {} : check.object(raw, path, ['events', 'fail_first', 'status']);
    if (!settings) continue;
    let events: ScenarioEndpoint['events'];
    if (settings.events !== undefined) {
      if (!Array.isArray(settings.events) || settings.events.length === 0) {
        check.fail([...path, 'events'], `must be a list of event types (${WEBHOOK_EVENT_TYPES.join(', ')})`);
      } else {
        events = settings.events.map(
          (type, index) =>
            check.oneOf(type, [...path, 'events', index], WEBHOOK_EVENT_TYPES) ?? 'webhook.test',
        );
      }
    }
    const failFirst =
      settings.fail_first === undefined
        ? 0
        : (check.whole(settings.fail_first, [...path, 'fail_first'], 0, 100) ?? 0);
    const status =
      settings.status === undefined
        ? 204
        : (check.whole(settings.status, [...path, 'status'], 200, 599) ?? 204);
    endpoints.set(name, { name, ...(events ? { events } : {}), failFirst, status });
  }
  return endpoints;
}

function checkStep(
  raw: unknown,
  index: number,
  check: Check,
  endpoints: ReadonlyMap<string, ScenarioEndpoint>,
  sends: Set<string>,
  live: boolean,
): ScenarioStep | undefined {
  const at: Segment[] = ['steps', index];
  if (!isObject(raw) || Object.keys(raw).length !== 1) {
    return check.fail(at, `must be a mapping with exactly one of ${STEP_KINDS.join(', ')}`);
  }
  const [kindText, body] = Object.entries(raw)[0]!;
  const kind = check.oneOf(kindText, [...at, kindText], STEP_KINDS);
  if (!kind) return undefined;
  const p: Segment[] = [...at, kind];
  const path = formatPath(at);
  const endpointRef = (value: unknown, where: Segment[]) => {
    const name = check.string(value, where, 'the name of an endpoint under endpoints');
    if (name !== undefined && !endpoints.has(name))
      check.fail(
        where,
        `names no endpoint under endpoints (${[...endpoints.keys()].join(', ') || 'none declared'})`,
      );
    return name ?? '';
  };
  const sendRef = (value: unknown, where: Segment[]) => {
    const name = check.string(value, where, 'the name of an earlier send');
    if (name !== undefined && !sends.has(name))
      check.fail(where, `names no earlier send (${[...sends].join(', ') || 'none named yet'})`);
    return name ?? '';
  };
  switch (kind) {
    case 'send': {
      const fields = check.object(body, p, ['name', 'body', 'repeat']);
      if (!fields) return undefined;
      let name: string | undefined;
      if (fields.name !== undefined) {
        name = check.string(
          fields.name,
          [...p, 'name'],
          'a name: a letter then letters, digits, _ or -',
          NAME,
        );
        if (name !== undefined && sends.has(name))
          check.fail([...p, 'name'], `${name} already names an earlier send`);
        if (name !== undefined) sends.add(name);
      }
      const message = check.object(
        fields.body,
        [...p, 'body'],
        ['type', 'connection_id', 'to', 'template', 'text', 'client_reference'],
      );
      if (message) {
        check.oneOf(message.type, [...p, 'body', 'type'], ['template', 'text']);
        check.string(
          message.to,
          [...p, 'body', 'to'],
          'a number in international format, e.g. +33612345678',
          PHONE,
        );
        if (message.connection_id !== undefined)
          check.string(message.connection_id, [...p, 'body', 'connection_id']);
        if (message.type === 'template' && !isObject(message.template))
          check.fail([...p, 'body', 'template'], 'must be {name, language, variables?} for a template send');
        if (message.type === 'text')
          check.string(message.text, [...p, 'body', 'text'], 'the text (1 to 4096 characters)');
      }
      const repeat =
        fields.repeat === undefined ? 1 : check.whole(fields.repeat, [...p, 'repeat'], 1, MAX_REPEAT);
      if (!message || repeat === undefined) return undefined;
      // A live scenario's default connection is made when it runs.
      const sendBody = {
        ...(live ? {} : { connection_id: SANDBOX_ACTIVE_CONNECTION_ID }),
        ...message,
      } as unknown as SendMessageParams;
      return { kind, path, name, body: sendBody, repeat };
    }
    case 'customer': {
      const fields = check.object(body, p, ['from', 'text']);
      if (!fields) return undefined;
      const from = check.string(fields.from, [...p, 'from'], 'a number in international format', PHONE);
      const text = check.string(fields.text, [...p, 'text'], 'the text (1 to 4096 characters)');
      return from && text ? { kind, path, from, text } : undefined;
    }
    case 'advance': {
      const duration = check.duration(body, p);
      return duration ? { kind, path, ms: duration.ms, text: duration.text } : undefined;
    }
    case 'fault': {
      const fields = check.object(body, p, ['method', 'path', 'times', 'status', 'code', 'retry_after']);
      if (!fields) return undefined;
      const method =
        fields.method === undefined
          ? null
          : (check.oneOf(fields.method, [...p, 'method'], ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) ?? null);
      const route =
        fields.path === undefined
          ? null
          : (check.string(
              fields.path,
              [...p, 'path'],
              'a /v1/… path (* for one segment)',
              /^\/v1(\/[A-Za-z0-9_*.-]+)*$/,
            ) ?? null);
      const times = fields.times === undefined ? 1 : check.whole(fields.times, [...p, 'times'], 1, 10_000);
      const status = check.whole(fields.status, [...p, 'status'], 400, 599);
      const code = check.string(
        fields.code,
        [...p, 'code'],
        'an error code, e.g. internal_error',
        /^[a-z][a-z0-9_]{0,63}$/,
      );
      const retryAfter =
        fields.retry_after === undefined
          ? undefined
          : check.whole(fields.retry_after, [...p, 'retry_after'], 0, 86_400);
      if (times === undefined || status === undefined || code === undefined) return undefined;
      return { kind, path, method, route, times, status, code, retryAfter };
    }
    case 'chaos': {
      const fields = check.object(body, p, ['endpoint', 'seed', ...CHAOS_KINDS]);
      if (!fields) return undefined;
      const endpoint = endpointRef(fields.endpoint, [...p, 'endpoint']);
      const seed =
        fields.seed === undefined ? undefined : check.whole(fields.seed, [...p, 'seed'], 0, 0xffff_ffff);
      const kinds: Record<string, Record<string, number>> = {};
      for (const chaosKind of CHAOS_KINDS) {
        const setting = fields[chaosKind];
        if (setting === undefined) continue;
        const where = [...p, chaosKind];
        const parsed = check.object(setting, where, ['rate', 'next', 'delay_ms']);
        if (!parsed) continue;
        if ('rate' in parsed === 'next' in parsed)
          check.fail(where, 'must have rate (0 to 1) or next (N), not both');
        if (
          parsed.rate !== undefined &&
          (typeof parsed.rate !== 'number' || parsed.rate < 0 || parsed.rate > 1)
        )
          check.fail([...where, 'rate'], 'must be a number from 0 to 1');
        if (parsed.next !== undefined) check.whole(parsed.next, [...where, 'next'], 1, 1_000);
        if (parsed.delay_ms !== undefined)
          check.whole(parsed.delay_ms, [...where, 'delay_ms'], 0, 6 * 3_600_000);
        kinds[chaosKind] = parsed as Record<string, number>;
      }
      if (Object.keys(kinds).length === 0)
        check.fail(p, `must set at least one of ${CHAOS_KINDS.join(', ')}`);
      return { kind, path, endpoint, seed, kinds };
    }
    case 'trigger': {
      if (live) {
        check.fail(p, 'needs application: sandbox: synthetic events exist in the sandbox alone');
        return undefined;
      }
      const fields = check.object(body, p, ['type', 'overrides']);
      if (!fields) return undefined;
      const type = check.oneOf(fields.type, [...p, 'type'], SANDBOX_EVENT_TYPES);
      let overrides: Fields | undefined;
      if (fields.overrides !== undefined && type !== undefined) {
        const problem = sandboxEventOverrideProblem(type, fields.overrides);
        if (problem) {
          const field = problem.field === 'overrides' ? [] : [problem.field];
          check.fail([...p, 'overrides', ...field], problem.message);
        } else overrides = fields.overrides as Fields;
      }
      return type ? { kind, path, type, overrides } : undefined;
    }
    case 'expect_status': {
      const fields = check.object(body, p, ['message', 'status', 'by', 'error']);
      if (!fields) return undefined;
      const message = sendRef(fields.message, [...p, 'message']);
      const status = check.oneOf(fields.status, [...p, 'status'], STATUSES);
      const by = fields.by === undefined ? undefined : check.duration(fields.by, [...p, 'by']);
      const error =
        fields.error === undefined
          ? undefined
          : check.string(
              fields.error,
              [...p, 'error'],
              'an error code, e.g. outside_messaging_window',
              /^[a-z][a-z0-9_]{0,63}$/,
            );
      return status
        ? {
            kind,
            path,
            message,
            status,
            byMs: by?.ms,
            byText: by?.text,
            ...(error === undefined ? {} : { error }),
          }
        : undefined;
    }
    case 'expect_delivery': {
      const fields = check.object(body, p, ['endpoint', 'type', 'message', 'fields', 'count']);
      if (!fields) return undefined;
      const endpoint = endpointRef(fields.endpoint, [...p, 'endpoint']);
      const type = check.oneOf(fields.type, [...p, 'type'], WEBHOOK_EVENT_TYPES);
      const message = fields.message === undefined ? undefined : sendRef(fields.message, [...p, 'message']);
      const expected = new Map<string, unknown>();
      if (fields.fields !== undefined) {
        if (!isObject(fields.fields))
          check.fail(
            [...p, 'fields'],
            'must be a mapping of dotted paths to values, e.g. data.message.status: delivered',
          );
        else
          for (const [key, value] of Object.entries(fields.fields)) {
            if (!/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(key))
              check.fail(
                [...p, 'fields', key],
                'must be a dotted path into the event, e.g. data.message.status',
              );
            expected.set(key, value);
          }
      }
      const count =
        fields.count === undefined ? undefined : check.whole(fields.count, [...p, 'count'], 0, 10_000);
      return type ? { kind, path, endpoint, type, message, fields: expected, count } : undefined;
    }
    case 'expect_error': {
      const fields = check.object(body, p, ['call', 'code', 'status', 'count']);
      if (!fields) return undefined;
      const call = sendRef(fields.call, [...p, 'call']);
      const code = check.string(
        fields.code,
        [...p, 'code'],
        'an error code, e.g. rate_limited',
        /^[a-z][a-z0-9_]{0,63}$/,
      );
      const status =
        fields.status === undefined ? undefined : check.whole(fields.status, [...p, 'status'], 400, 599);
      const count =
        fields.count === undefined ? undefined : check.whole(fields.count, [...p, 'count'], 1, MAX_REPEAT);
      return code ? { kind, path, call, code, status, count } : undefined;
    }
    case 'expect_no_other_deliveries': {
      if (body === null || body === true) return { kind, path, endpoint: undefined };
      const fields = check.object(body, p, ['endpoint']);
      if (!fields) return undefined;
      return {
        kind,
        path,
        endpoint:
          fields.endpoint === undefined ? undefined : endpointRef(fields.endpoint, [...p, 'endpoint']),
      };
    }
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseScenario, ScenarioFileError } from '@parley/emulator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The published JSON Schema (editors complete with it) and the runner's own check agree: every
// example passes both, and every kind of bad file is refused by both, the runner naming its path.
const root = new URL('../../../', import.meta.url);
const schema = JSON.parse(
  readFileSync(new URL('packages/emulator/src/scenario/scenario.schema.json', root), 'utf8'),
) as object;
const validate = new Ajv2020({ strict: true, strictRequired: false, allErrors: true }).compile(schema);
const examples = fileURLToPath(new URL('examples/scenarios/', root));

const GOOD = `
version: 1
name: good
endpoints:
  app: { events: [message.status_updated] }
steps:
  - send: { name: hi, body: { type: text, to: '+33612345678', text: Hi } }
  - advance: 5s
  - expect_status: { message: hi, status: delivered }
  - expect_delivery: { endpoint: app, type: message.status_updated, message: hi }
`;

// Each bad file: a change to GOOD's text, the path the runner names, its line, and its message.
const BAD: [string, string, string, number | undefined, string][] = [
  ['not a mapping', '- 1\n- 2\n', '(file)', 1, 'must be a mapping'],
  ['wrong version', GOOD.replace('version: 1', 'version: 2'), 'version', 2, 'must be 1'],
  ['no steps', GOOD.replace(/steps:[\s\S]*/, 'steps: []\n'), 'steps', 6, 'must be a list of 1 to 1000 steps'],
  ['unknown top-level field', `${GOOD}extra: 1\n`, 'extra', 11, 'unknown field'],
  [
    'unknown step kind',
    GOOD.replace('- advance: 5s', '- advanec: 5s'),
    'steps[1].advanec',
    8,
    'must be one of send',
  ],
  [
    'two kinds in a step',
    GOOD.replace('- advance: 5s', '- { advance: 5s, send: {} }'),
    'steps[1]',
    8,
    'exactly one of',
  ],
  [
    'a bad duration',
    GOOD.replace('advance: 5s', 'advance: 1.5h'),
    'steps[1].advance',
    8,
    'cannot read "1.5h" as a duration',
  ],
  ['a zero duration', GOOD.replace('advance: 5s', 'advance: 0s'), 'steps[1].advance', 8, 'moves nothing'],
  [
    'a bad recipient',
    GOOD.replace("'+33612345678'", "'0612345678'"),
    'steps[0].send.body.to',
    7,
    'international format',
  ],
  [
    'a send without its body',
    GOOD.replace(/body: \{[^}]*\} /, ''),
    'steps[0].send.body',
    7,
    'must be a mapping',
  ],
  [
    'an unknown body field',
    GOOD.replace('text: Hi', 'text: Hi, txt: Hi'),
    'steps[0].send.body.txt',
    7,
    'unknown field',
  ],
  [
    'a reference to no send',
    GOOD.replace('message: hi, status', 'message: ho, status'),
    'steps[2].expect_status.message',
    9,
    'names no earlier send (hi)',
  ],
  [
    'a reference to a later send',
    GOOD.replace(
      '- advance: 5s',
      '- expect_error: { call: later, code: rate_limited }\n  - send: { name: later, body: { type: text, to: "+33612345678", text: Hi } }',
    ),
    'steps[1].expect_error.call',
    8,
    'names no earlier send (hi)',
  ],
  [
    'a duplicate send name',
    GOOD.replace('- advance: 5s', "- send: { name: hi, body: { type: text, to: '+33612345678', text: Hi } }"),
    'steps[1].send.name',
    8,
    'hi already names an earlier send',
  ],
  [
    'an unknown endpoint',
    GOOD.replace('endpoint: app', 'endpoint: ap'),
    'steps[3].expect_delivery.endpoint',
    10,
    'names no endpoint under endpoints (app)',
  ],
  [
    'an unknown event type',
    GOOD.replace('events: [message.status_updated]', 'events: [message.sent]'),
    'endpoints.app.events[0]',
    5,
    'must be one of message.received',
  ],
  [
    'an unknown status',
    GOOD.replace('status: delivered', 'status: done'),
    'steps[2].expect_status.status',
    9,
    'must be one of queued',
  ],
  [
    'fail_first past its bound',
    GOOD.replace('{ events', '{ fail_first: 101, events'),
    'endpoints.app.fail_first',
    5,
    'from 0 to 100',
  ],
  [
    'a chaos kind that is not one',
    GOOD.replace('- advance: 5s', '- chaos: { endpoint: app, triplicate: { next: 1 } }'),
    'steps[1].chaos.triplicate',
    8,
    'unknown field',
  ],
  [
    'a chaos rate past 1',
    GOOD.replace('- advance: 5s', '- chaos: { endpoint: app, duplicate: { rate: 1.5 } }'),
    'steps[1].chaos.duplicate.rate',
    8,
    'from 0 to 1',
  ],
  [
    'a fault without its code',
    GOOD.replace('- advance: 5s', '- fault: { status: 503 }'),
    'steps[1].fault.code',
    8,
    'an error code',
  ],
  [
    'a trigger override the API refuses',
    GOOD.replace(
      '- advance: 5s',
      '- trigger: { type: message.received, overrides: { data.message.txt: hi } }',
    ),
    'steps[1].trigger.overrides.data.message.txt',
    8,
    'cannot be set on message.received',
  ],
  [
    'a start that is no time',
    GOOD.replace('name: good', 'name: good\nstart: yesterday'),
    'start',
    4,
    'ISO 8601',
  ],
];

describe('the scenario JSON Schema', () => {
  it.each(readdirSync(examples).filter((name) => name.endsWith('.yaml')))(
    'accepts %s, as the runner does',
    (name) => {
      const text = readFileSync(`${examples}${name}`, 'utf8');
      expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
      expect(parseScenario(text, name).name.length).toBeGreaterThan(0);
    },
  );

  it('accepts the good file both refusals below start from', () => {
    expect(validate(parse(GOOD)), JSON.stringify(validate.errors)).toBe(true);
    expect(parseScenario(GOOD).steps.map((step) => step.path)).toEqual([
      'steps[0]',
      'steps[1]',
      'steps[2]',
      'steps[3]',
    ]);
  });

  it.each(BAD)('refuses %s, naming its path', (_, text, path, line, message) => {
    let refusal: unknown;
    try {
      parseScenario(text, 'bad.yaml');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ScenarioFileError);
    const issues = (refusal as ScenarioFileError).issues;
    expect(issues[0]).toEqual({ path, line, message: expect.stringContaining(message) });
    expect((refusal as ScenarioFileError).message).toContain(`bad.yaml is not a valid scenario:\n  ${path}`);
  });

  // The schema cannot see references (a send's name, an endpoint's) or the API's override rules:
  // those the runner alone refuses. Every other bad file the schema refuses too.
  const RUNNER_ONLY = new Set([
    'a reference to no send',
    'a reference to a later send',
    'a duplicate send name',
    'an unknown endpoint',
    'a trigger override the API refuses',
    'a zero duration',
    'a start that is no time',
  ]);
  it.each(BAD.filter(([name]) => !RUNNER_ONLY.has(name)))('the schema refuses %s too', (_, text) => {
    expect(validate(parse(text))).toBe(false);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../create-emulator';
import { parseScenario, ScenarioFileError } from './parse-scenario';
import { runScenario } from './run-scenario';

const emulator = createEmulator({ clock: 'frozen' });
afterAll(() => emulator.close());

const run = (text: string) =>
  runScenario(parseScenario(text, 'live.yaml'), { emulator, throwOnFailure: false });

const LIVE = `
version: 1
name: live window
application: live
start: 2026-11-02T09:00:00Z
steps:
  - customer: { from: '+33612345678', text: Hello }
`;
const reply = (name: string) =>
  `  - send: { name: ${name}, body: { type: text, to: '+33612345678', text: Hi } }\n`;

describe('application: live', () => {
  it("a text reply at 24 h − 1 ms is inside the customer's window; at 24 h it fails outside_messaging_window", async () => {
    const report = await run(`${LIVE}  - advance: 23h59m59s999ms
${reply('last')}  - advance: 1ms
${reply('late')}  - advance: 5s
  - expect_status: { message: last, status: delivered }
  - expect_status: { message: late, status: failed, error: outside_messaging_window }
`);
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
    const [application] = (await emulator.control.listApplications({ workspaceId: report.workspace_id }))
      .data;
    expect(application?.environment).toBe('live');
  });

  it('without the customer message a text reply fails: the expectation of delivery names the code', async () => {
    const report = await run(`version: 1
name: no window
application: live
steps:
${reply('cold')}  - advance: 5s
  - expect_status: { message: cold, status: delivered }
`);
    expect(report.passed).toBe(false);
    expect(report.failures).toEqual([
      {
        step: 3,
        path: 'steps[2]',
        message: expect.stringMatching(
          /^expected cold to have reached delivered; at \+5 s [0-9a-f-]{36} is failed \(outside_messaging_window\)$/,
        ),
      },
    ]);
  });

  it('an expected error code that differs fails the step', async () => {
    const report = await run(`${LIVE}${reply('inside')}  - advance: 5s
  - expect_status: { message: inside, status: delivered, error: outside_messaging_window }
`);
    expect(report.failures.map((failure) => [failure.path, failure.message.split(';')[0]])).toEqual([
      ['steps[3]', 'expected inside to have reached delivered (outside_messaging_window)'],
    ]);
  });

  it('refuses an unknown application kind, and a trigger step (sandbox events) in a live scenario', () => {
    const issues = (text: string) => {
      try {
        parseScenario(text, 'live.yaml');
      } catch (error) {
        if (error instanceof ScenarioFileError) return error.issues.map((each) => [each.path, each.message]);
        throw error;
      }
      return [];
    };
    expect(issues(LIVE.replace('application: live', 'application: staging'))).toEqual([
      ['application', 'must be one of sandbox, live'],
    ]);
    expect(issues(`${LIVE}  - trigger: { type: message.received }\n`)).toEqual([
      ['steps[1].trigger', 'needs application: sandbox: synthetic events exist in the sandbox alone'],
    ]);
    expect(parseScenario(LIVE, 'live.yaml').application).toBe('live');
    expect(parseScenario(LIVE.replace('application: live\n', ''), 'live.yaml').application).toBeUndefined();
  });
});

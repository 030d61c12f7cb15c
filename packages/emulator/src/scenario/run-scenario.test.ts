import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../create-emulator';
import { parseScenario } from './parse-scenario';
import { runScenario, ScenarioFailedError } from './run-scenario';

const emulator = createEmulator({ clock: 'frozen' });
afterAll(() => emulator.close());

const run = (text: string) =>
  runScenario(parseScenario(text, 'test.yaml'), { emulator, throwOnFailure: false });

const HEAD = `
version: 1
name: under test
start: 2026-11-02T09:00:00Z
endpoints:
  app: { events: [message.status_updated] }
steps:
  - send: { name: welcome, body: { type: template, to: '+33612345678', template: { name: hello_world, language: en } } }
`;

describe('runScenario', () => {
  it('fails a wrong expectation naming its step, its path in the file and the difference, and runs on', async () => {
    const report = await run(`${HEAD}  - expect_status: { message: welcome, status: read, by: 5s }
  - expect_status: { message: welcome, status: delivered }
`);
    expect(report.passed).toBe(false);
    expect(report.failures).toEqual([
      {
        step: 2,
        path: 'steps[1]',
        message: expect.stringMatching(
          /^expected welcome to have reached read by 5s; at \+5 s [0-9a-f-]{36} is delivered$/,
        ),
      },
    ]);
    expect(report.steps.map((step) => [step.step, step.path, step.outcome, step.elapsed_ms])).toEqual([
      [1, 'steps[0]', 'passed', 0],
      [2, 'steps[1]', 'failed', 5_000],
      [3, 'steps[2]', 'passed', 5_000],
    ]);
  });

  it('throws a ScenarioFailedError with that report unless told not to', async () => {
    const text = `${HEAD}  - expect_status: { message: welcome, status: failed }\n`;
    const refusal = await runScenario(parseScenario(text, 'test.yaml'), { emulator }).catch((error) => error);
    expect(refusal).toBeInstanceOf(ScenarioFailedError);
    expect(refusal.message).toMatch(
      /^scenario "under test" failed:\n {2}step 2 \(steps\[1\]\): expected welcome to have reached failed; at \+0 ms [0-9a-f-]{36} is queued$/,
    );
    expect(refusal.report.failures).toHaveLength(1);
  });

  it('names the value a delivery had where another was expected', async () => {
    const report = await run(`${HEAD}  - advance: 2s
  - expect_delivery: { endpoint: app, type: message.status_updated, message: welcome, fields: { data.message.status: delivered } }
`);
    expect(report.failures).toEqual([
      {
        step: 3,
        path: 'steps[2]',
        message: expect.stringMatching(
          /^expected a message\.status_updated with data\.message\.status = "delivered", data\.message\.id = "[0-9a-f-]{36}" at app; 0 matched of 1 message\.status_updated not yet taken \(evt_\w+: data\.message\.status = "sent", data\.message\.id = "[0-9a-f-]{36}"\)$/,
        ),
      },
    ]);
  });

  it('fails a call that failed when no expect_error names it, at the send', async () => {
    const report = await run(
      `${HEAD}  - send: { name: refused, body: { type: text, to: '+15550101005', text: Hi } }\n`,
    );
    expect(report.steps.map((step) => step.outcome)).toEqual(['passed', 'passed']);
    expect(report.failures).toEqual([
      {
        step: 2,
        path: 'steps[1]',
        message: expect.stringMatching(
          /^the call failed with connection_inactive \(409: .+\) and no expect_error names it$/,
        ),
      },
    ]);
  });

  it('counts the failed calls of a burst exactly: 30 pass, the 31st is rate_limited', async () => {
    const burst = `${HEAD}  - send: { name: burst, repeat: 30, body: { type: text, to: '+33612345678', text: Hi } }\n`;
    const exact = await run(`${burst}  - expect_error: { call: burst, code: rate_limited, count: 1 }\n`);
    expect(exact.failures).toEqual([]);
    const wrong = await run(`${burst}  - expect_error: { call: burst, code: rate_limited, count: 2 }\n`);
    expect(wrong.failures).toEqual([
      {
        step: 3,
        path: 'steps[2]',
        message:
          'expected exactly 2 call of burst to fail with rate_limited; of 30: 29 succeeded, 1 failed with rate_limited (429)',
      },
    ]);
  });

  it('refuses a by already past instead of reading a status at another time', async () => {
    const report = await run(
      `${HEAD}  - advance: 10s\n  - expect_status: { message: welcome, status: delivered, by: 5s }\n`,
    );
    expect(report.failures).toEqual([
      {
        step: 3,
        path: 'steps[2]',
        message: 'by 5s is already past: the clock is at +10 s; put this step before the advance',
      },
    ]);
  });

  it('lists what expect_no_other_deliveries found untaken', async () => {
    const report = await run(`${HEAD}  - advance: 5s
  - expect_delivery: { endpoint: app, type: message.status_updated, fields: { data.message.status: sent } }
  - expect_no_other_deliveries: {}
`);
    expect(report.failures).toEqual([
      {
        step: 4,
        path: 'steps[3]',
        message: expect.stringMatching(
          /^expected no other deliveries; 1 not taken by an expect_delivery: app got message\.status_updated evt_\w+ \(data\.message\.status delivered\)$/,
        ),
      },
    ]);
  });

  it("scopes a fault to the scenario's key and removes it after the run", async () => {
    const report =
      await run(`${HEAD}  - fault: { method: POST, path: /v1/messages, status: 503, code: service_unavailable }
  - send: { name: faulted, body: { type: text, to: '+33612345678', text: Hi } }
  - send: { name: after, body: { type: text, to: '+33612345678', text: Hi } }
  - expect_error: { call: faulted, code: service_unavailable, status: 503 }
  - expect_status: { message: after, status: queued }
`);
    expect(report.failures).toEqual([]);
    expect((await emulator.control.listFaults()).data).toEqual([]);
  });

  it('applies chaos to the named endpoint: a duplicate is received twice', async () => {
    const report = await run(`${HEAD}  - chaos: { endpoint: app, duplicate: { next: 1 }, seed: 7 }
  - advance: 2s
  - expect_delivery: { endpoint: app, type: message.status_updated, message: welcome, count: 2, fields: { data.message.status: sent } }
  - expect_no_other_deliveries: { endpoint: app }
`);
    expect(report.failures).toEqual([]);
  });

  it('runs each scenario in a workspace of its own, on a clock of its own', async () => {
    const globalBefore = (await emulator.control.getClock()).now;
    const first = await run(`${HEAD}  - advance: 1h\n`);
    const second = await run(`${HEAD}  - advance: 1h\n`);
    expect(first.workspace_id).not.toBe(second.workspace_id);
    expect([first.started_at, second.started_at]).toEqual([
      '2026-11-02T09:00:00.000Z',
      '2026-11-02T09:00:00.000Z',
    ]);
    expect((await emulator.control.getClock()).now).toBe(globalBefore);
  });
});

describe('loadScenario', () => {
  it('refuses what is not a regular file, and a file past 1 MiB, naming the file', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadScenario } = await import('./run-scenario');
    const dir = mkdtempSync(join(tmpdir(), 'parley-scenario-load-'));
    try {
      await expect(loadScenario(dir)).rejects.toThrow(
        `${dir} is not a valid scenario:\n  (file): is not a regular file`,
      );
      const big = join(dir, 'big.yaml');
      writeFileSync(big, `# ${'x'.repeat(1_048_576 - 3)}\n`);
      await expect(loadScenario(big)).rejects.toThrow(
        /is not a valid scenario:\n {2}\(file\): must be a mapping/,
      );
      writeFileSync(big, `# ${'x'.repeat(1_048_576 - 2)}\n`);
      await expect(loadScenario(big)).rejects.toThrow(
        `${big} is not a valid scenario:\n  (file): is larger than 1048576 bytes`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';

// The built CLI as a process (`pnpm --filter @parley/emulator build && pnpm --filter @parley/cli build` first).
const examples = fileURLToPath(new URL('../../../examples/scenarios/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parley-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRONG = `version: 1
name: expects too much
endpoints:
  app: { events: [message.status_updated] }
steps:
  - send: { name: welcome, body: { type: text, to: '+33612345678', text: Hi } }
  - expect_status: { message: welcome, status: read, by: 5s }
`;
const INVALID = `version: 1
name: invalid
steps:
  - send: { name: welcome, body: { type: text, to: '0612345678', text: Hi } }
  - advance: soon
`;

interface JunitCase {
  name: string;
  failure?: { message: string };
}
interface JunitSuite {
  name: string;
  file?: string;
  tests: string;
  failures: string;
  testcase: JunitCase[];
}
// Attributes as fields (no prefix), every suite and case a list even when it is alone.
const readJunit = (text: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  }).parse(text) as {
    testsuites: { name: string; tests: string; failures: string; testsuite: JunitSuite[] };
  };

describe('parley scenario run (as a process)', () => {
  it('exit 0: the examples pass, a step-by-step report, and JUnit XML with a case per step', async () => {
    assertCliBuilt();
    const junit = join(dir, 'pass.xml');
    const result = await runCli(
      [
        'scenario',
        'run',
        `${examples}template-delivered.yaml`,
        `${examples}rate-limited-burst.yaml`,
        '--junit',
        junit,
      ],
      {},
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ a template send is delivered (');
    expect(result.stdout).toContain('    ✓ 3. steps[2] +5 s expect welcome delivered by 5s\n');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('2 scenario(s): 2 passed, 0 failed');
    const text = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    const xml = readJunit(text);
    expect(xml.testsuites).toMatchObject({ name: 'parley scenario run', tests: '11', failures: '0' });
    const suites = xml.testsuites.testsuite;
    expect(suites.map((suite) => [suite.name, suite.tests, suite.failures])).toEqual([
      ['a template send is delivered', '6', '0'],
      ['a burst of sends is rate limited', '5', '0'],
    ]);
    expect(suites[0]!.testcase.map((each) => each.name)).toEqual([
      'step 1 (steps[0]): send welcome to +33612345678',
      'step 2 (steps[1]): expect welcome sent by 2s',
      'step 3 (steps[2]): expect welcome delivered by 5s',
      'step 4 (steps[3]): expect message.status_updated at app',
      'step 5 (steps[4]): expect message.status_updated at app',
      'step 6 (steps[5]): expect no other deliveries at app',
    ]);
    expect(suites.flatMap((suite) => suite.testcase).filter((each) => each.failure)).toEqual([]);
  });

  it('exit 1: a failed expectation names the step, its path and the difference; --json has the report', async () => {
    const file = join(dir, 'wrong.yaml');
    writeFileSync(file, WRONG);
    const junit = join(dir, 'fail.xml');
    const human = await runCli(['scenario', 'run', file, '--junit', junit], {});
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(
      /^✗ expects too much \(.+wrong\.yaml\)\n {4}✓ 1\. steps\[0\] \+0 ms send welcome to \+33612345678\n {4}✗ 2\. steps\[1\] \+5 s expect welcome read by 5s\n {8}expected welcome to have reached read by 5s; at \+5 s [0-9a-f-]{36} is delivered\n1 scenario\(s\): 0 passed, 1 failed\n$/,
    );
    const suite = readJunit(readFileSync(junit, 'utf8')).testsuites.testsuite[0]!;
    expect([suite.name, suite.file, suite.tests, suite.failures]).toEqual([
      'expects too much',
      file,
      '2',
      '1',
    ]);
    expect(suite.testcase.map((each) => [each.name, each.failure?.message])).toEqual([
      ['step 1 (steps[0]): send welcome to +33612345678', undefined],
      [
        'step 2 (steps[1]): expect welcome read by 5s',
        expect.stringMatching(
          /^expected welcome to have reached read by 5s; at \+5 s [0-9a-f-]{36} is delivered$/,
        ),
      ],
    ]);
    const json = await runCli(['scenario', 'run', file, '--json'], {});
    expect(json.code).toBe(1);
    const data = JSON.parse(json.stdout);
    expect(data.passed).toBe(false);
    expect(data.scenarios[0].failures).toEqual([
      {
        step: 2,
        path: 'steps[1]',
        message: expect.stringContaining('expected welcome to have reached read by 5s'),
      },
    ]);
  });

  it('exit 2: an invalid file is refused naming the file, the path and the line, and nothing runs', async () => {
    const file = join(dir, 'invalid.yaml');
    writeFileSync(file, INVALID);
    const human = await runCli(['scenario', 'run', `${examples}template-delivered.yaml`, file], {});
    expect(human.code).toBe(2);
    expect(human.stdout).toBe('');
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(human.stderr).toMatch(
      new RegExp(
        `^${escaped} is not a valid scenario:\\n {2}steps\\[0\\]\\.send\\.body\\.to \\(line 4\\): must be a number in international format, e\\.g\\. \\+33612345678\\n {2}steps\\[1\\]\\.advance \\(line 5\\): cannot read "soon" as a duration: [^\\n]+\\n`,
      ),
    );
    expect(human.stderr).toContain('1 of 2 scenario file(s) invalid (above): nothing ran');
    const json = await runCli(['scenario', 'run', file, '--json'], {});
    expect(json.code).toBe(2);
    const body = JSON.parse(json.stdout);
    expect(body.error.code).toBe('invalid_scenario');
    expect(body.error.details.files[0].issues.map((issue: { path: string }) => issue.path)).toEqual([
      'steps[0].send.body.to',
      'steps[1].advance',
    ]);
    const missing = await runCli(['scenario', 'run', join(dir, 'absent.yaml')], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read ${join(dir, 'absent.yaml')}: ENOENT`);
  });

  it('--parallel N runs up to N at once: the same reports, in the order the files were given; 1 to 16 only', async () => {
    const files = ['template-delivered', 'failed-recipient', 'flaky-receiver', 'rate-limited-burst'].map(
      (name) => `${examples}${name}.yaml`,
    );
    const one = await runCli(['scenario', 'run', ...files, '--json'], {});
    const three = await runCli(['scenario', 'run', ...files, '--parallel', '3', '--json'], {});
    expect(one.code).toBe(0);
    expect(three.code).toBe(0);
    // Elapsed times are emulator times, so the reports are equal whichever ran first, but for each
    // run's own workspace id and wall-clock start.
    const stable = (stdout: string) =>
      JSON.parse(stdout, (key, value) =>
        key === 'workspace_id' || key === 'started_at' ? undefined : value,
      );
    expect(stable(three.stdout)).toEqual(stable(one.stdout));
    expect(stable(one.stdout).scenarios).toHaveLength(4);
    expect(JSON.parse(three.stdout).scenarios.map((report: { file: string }) => report.file)).toEqual(files);
    const most = await runCli(['scenario', 'run', files[0]!, '--parallel', '16'], {});
    expect(most.code).toBe(0);
    for (const [value, shown] of [
      ['0', '0'],
      ['17', '17'],
      ['2.5', '2.5'],
      ['x', 'x'],
    ]) {
      const refused = await runCli(['scenario', 'run', files[0]!, '--parallel', value!], {});
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(`Error: --parallel takes a whole number from 1 to 16, not ${shown}\n`);
      expect(refused.stdout).toBe('');
    }
  });
});

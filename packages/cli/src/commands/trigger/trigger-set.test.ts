import { afterAll, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { trigger } from './index';

const { emulator, context } = emulatorContext();
afterAll(() => emulator.close());

describe('parley trigger --set', () => {
  it('sets each value in the event, parsed as JSON when it parses, else as typed', async () => {
    const result = await trigger(
      {
        eventType: 'message.status_updated',
        set: [
          'data.message.status=failed',
          'data.message.client_reference=null',
          'data.message.to=+33612345678',
        ],
      },
      context(),
    );
    expect(result.data).toMatchObject({
      message: {
        status: 'failed',
        client_reference: null,
        to: '+33612345678',
        error: { code: 'recipient_unreachable' },
      },
    });
    const quoted = await trigger(
      { eventType: 'message.received', set: ['data.message.text="42"'] },
      context(),
    );
    expect(quoted.data).toMatchObject({ message: { text: '42' } });
    const withEquals = await trigger({ eventType: 'webhook.test', set: ['data.message=a=b'] }, context());
    expect(withEquals.data).toEqual({ message: 'a=b' });
  });

  it('refuses an unknown path, a wrong type or a malformed flag before any call (exit 2), naming the path', async () => {
    const before = (await emulator.control.listEvents()).data.length;
    for (const [set, message] of [
      [
        ['data.message.txt=hi'],
        '--set data.message.txt cannot be set on message.received: use data.message.text, data.message.from',
      ],
      [
        ['data.message.text=42'],
        `--set data.message.text must be a string of 1 to 4096 characters, got the number 42 (to send it as text, quote it for JSON: --set 'data.message.text="42"')`,
      ],
      [
        ['data.message.from=0612'],
        '--set data.message.from must be a phone number in international format (+ and 8 to 15 digits), got "0612"',
      ],
      [
        ['data.message.text'],
        '--set takes PATH=VALUE, e.g. --set data.message.text="Where is my order?"; got "data.message.text"',
      ],
    ] as const) {
      await expect(
        trigger({ eventType: 'message.received', set: [...set] }, context()),
      ).rejects.toMatchObject({
        code: 2,
        message,
      });
    }
    expect((await emulator.control.listEvents()).data).toHaveLength(before);
  });
});

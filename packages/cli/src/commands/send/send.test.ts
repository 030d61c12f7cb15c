import { SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_DISCONNECTED_CONNECTION_ID } from '@parley/emulator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { send } from './index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };

const TO = '+33612345678';

describe('parley send', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('sends a template and prints the generated idempotency key on stderr', async () => {
    const run = context();
    const message = await send(
      {
        connection: SANDBOX_ACTIVE_CONNECTION_ID,
        to: TO,
        template: 'order_confirmation',
        language: 'fr',
        var: ['Ada', 'A-42'],
        clientReference: 'order-42',
      },
      run,
    );
    expect(message).toMatchObject({
      object: 'message',
      status: 'queued',
      type: 'template',
      to: TO,
      template: { name: 'order_confirmation', language: 'fr' },
      client_reference: 'order-42',
    });
    expect(run.stderr.text()).toMatch(/^Idempotency-Key: [0-9a-f-]{36}\n$/);
    expect(run.stdout.text()).toBe('');
  });

  it('sends a text message', async () => {
    const message = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'Bonjour' },
      context(),
    );
    expect(message).toMatchObject({ type: 'text', text: 'Bonjour', template: null, status: 'queued' });
  });

  it('finds the language of a template the connection has in one language only', async () => {
    const message = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, template: 'hello_world' },
      context(),
    );
    expect(message.template).toEqual({ name: 'hello_world', language: 'en' });
  });

  it('replays the first send for the same idempotency key, without printing the key', async () => {
    const options = {
      connection: SANDBOX_ACTIVE_CONNECTION_ID,
      to: TO,
      text: 'once',
      idempotencyKey: 'cli-test-key-1',
    };
    const run = context();
    const first = await send(options, run);
    const again = await send(options, context());
    expect(again.id).toBe(first.id);
    expect(run.stderr.text()).toBe('');
  });

  it('follows the message with --wait as the frozen clock moves: queued → sent → delivered', async () => {
    const run = context();
    const sending = send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'wait for me', wait: true, interval: 5 },
      run,
    );
    await vi.waitFor(() => expect(run.stderr.text()).toMatch(/ queued \(/), PATIENCE);
    await emulator.clock.advance(2_000);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('queued → sent'), PATIENCE);
    await emulator.clock.advance(3_000);
    const message = await sending;
    expect(message.status).toBe('delivered');
    expect(run.stderr.text()).toMatch(/queued → sent → delivered \(\d+\.\d s\)\n$/);
  });

  it('stops --wait sent as soon as the message is sent', async () => {
    const run = context();
    const sending = send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'x', wait: 'sent', interval: 5 },
      run,
    );
    await vi.waitFor(() => expect(run.stderr.text()).toMatch(/ queued \(/), PATIENCE);
    await emulator.clock.advance(2_000);
    expect((await sending).status).toBe('sent');
  });

  it('fails --wait with exit 1 and the message error when the recipient is unreachable', async () => {
    const failure = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: '+33600000000', text: 'x', wait: true, interval: 5 },
      context(),
    ).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.message).toMatch(/failed: recipient_unreachable/);
    expect(failure.body.error).toMatchObject({
      code: 'message_failed',
      details: { message: { status: 'failed' } },
    });
  });

  it('gives up --wait after --timeout with exit 1 and how to check later', async () => {
    const failure = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'x', wait: true, interval: 5, timeout: 0.05 },
      context(),
    ).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.message).toMatch(
      /still queued after 0\.05 s: check later with `parley messages get .* --watch`/,
    );
  });

  it('explains a send through a disconnected connection (exit 1)', async () => {
    const failure = await send(
      { connection: SANDBOX_DISCONNECTED_CONNECTION_ID, to: TO, text: 'x' },
      context(),
    ).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.body.error.code).toBe('connection_inactive');
    expect(failure.message).toContain('parley connections list');
  });

  it('is a usage error (exit 2) listing what is missing when it cannot ask', async () => {
    await expect(send({ to: TO }, context())).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('missing --connection, --template or --text'),
    });
    await expect(
      send(
        { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'a', template: 'hello_world' },
        context(),
      ),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      send({ connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'a', wait: 'queued' }, context()),
    ).rejects.toMatchObject({ code: 2 });
  });

  it('refuses a template the connection does not have (exit 2)', async () => {
    await expect(
      send({ connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, template: 'nope' }, context()),
    ).rejects.toMatchObject({ code: 2, message: expect.stringContaining('parley templates list') });
  });
});

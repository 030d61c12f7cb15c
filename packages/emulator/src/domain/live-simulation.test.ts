import { describe, expect, test } from 'vitest';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import {
  connectionView,
  createInboundMessage,
  createLiveConnection,
  insideWindow,
  MESSAGING_WINDOW_MS,
  windowSlot,
} from './live-simulation';
import type { ApplicationRecord, ConnectionRecord } from './records';

const NOW = Date.UTC(2026, 9, 14, 9, 30, 0, 250);
const HOURS_24 = 24 * 60 * 60 * 1000;
const LIVE_APP: ApplicationRecord = {
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  workspace_id: '12ab34cd-5678-4ef0-9abc-def012345678',
  name: 'Live app',
  environment: 'live',
  created_at: '2026-10-14T00:00:00Z',
};
const SANDBOX_APP: ApplicationRecord = { ...LIVE_APP, environment: 'sandbox' };

const MESSAGES: Record<string, string> = {
  body: 'The body must be a JSON object.',
  application_id:
    'Sandbox applications have the two fixed sandbox connections; add connections to live applications.',
  phone_number: 'phone_number must be "+" followed by 8 to 15 digits.',
  name: 'name must be a string of 1 to 200 characters.',
  from: 'from must be "+" followed by 8 to 15 digits.',
  text: 'text must be a string of 1 to 4096 characters.',
};

const invalid = (field: string, reason: string) => ({
  code: 'validation_error',
  status: 400,
  message: MESSAGES[field],
  details: { field, reason },
});

describe('24 h messaging window (DESIGN §4)', () => {
  const windows = { [windowSlot('conn-1', '+33612345678')]: NOW };

  test('24 h long; one slot per connection and customer', () => {
    expect(MESSAGING_WINDOW_MS).toBe(HOURS_24);
    expect(windowSlot('conn-1', '+33612345678')).toBe('conn-1\n+33612345678');
    expect(windowSlot('conn-1', '+33612345679')).not.toBe(windowSlot('conn-1', '+33612345678'));
    expect(windowSlot('conn-2', '+33612345678')).not.toBe(windowSlot('conn-1', '+33612345678'));
  });

  // Half-open like every other 24 h rule here (idempotency, the previous signing secret): open for
  // [opened, opened + 24 h).
  test('open from the inbound message to 24 h − 1 ms; closed at 24 h and 24 h + 1 ms', () => {
    expect(insideWindow(windows, 'conn-1', '+33612345678', NOW)).toBe(true);
    expect(insideWindow(windows, 'conn-1', '+33612345678', NOW + HOURS_24 - 1)).toBe(true);
    expect(insideWindow(windows, 'conn-1', '+33612345678', NOW + HOURS_24)).toBe(false);
    expect(insideWindow(windows, 'conn-1', '+33612345678', NOW + HOURS_24 + 1)).toBe(false);
  });

  test('only the customer who wrote, only on the connection written to', () => {
    expect(insideWindow(windows, 'conn-1', '+33612345679', NOW + 1)).toBe(false);
    expect(insideWindow(windows, 'conn-2', '+33612345678', NOW + 1)).toBe(false);
    expect(insideWindow({}, 'conn-1', '+33612345678', NOW)).toBe(false);
  });
});

describe('createLiveConnection', () => {
  test('an active simulated number with every connection field', () => {
    expect(createLiveConnection(LIVE_APP, { phone_number: '+33123456789', name: 'Boutique' }, NOW)).toEqual({
      object: 'connection',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'active',
      phone_number: '+33123456789',
      name: 'Boutique',
      quality_rating: 'GREEN',
      waba_id: '212345678409012',
      livemode: true,
      created_at: '2026-10-14T09:30:00Z',
      application_id: LIVE_APP.id,
    });
  });

  test('waba_id: "2" + the first 14 digits of the workspace id, zero-padded', () => {
    const app = { ...LIVE_APP, workspace_id: 'abcdef01-abcd-4bcd-abcd-abcdefabcdef' };
    expect(createLiveConnection(app, { phone_number: '+33123456789' }, NOW).waba_id).toBe('201400000000000');
  });

  test('name defaults to the number (absent or null); 200 characters accepted, 201 or empty refused', () => {
    const number = '+33123456789';
    expect(createLiveConnection(LIVE_APP, { phone_number: number }, NOW).name).toBe(number);
    expect(createLiveConnection(LIVE_APP, { phone_number: number, name: null }, NOW).name).toBe(number);
    expect(
      createLiveConnection(LIVE_APP, { phone_number: number, name: 'n'.repeat(200) }, NOW).name,
    ).toHaveLength(200);
    for (const name of ['n'.repeat(201), '', 42]) {
      expect(
        thrownDomainError(() => createLiveConnection(LIVE_APP, { phone_number: number, name }, NOW)),
      ).toMatchObject(invalid('name', 'invalid_type'));
    }
  });

  test.each(['+1234567', '+1234567890123456', '33123456789', 'x+33123456789', '+33 123456789', 33123456789])(
    'phone_number %j refused',
    (phone_number) => {
      expect(thrownDomainError(() => createLiveConnection(LIVE_APP, { phone_number }, NOW))).toMatchObject(
        invalid('phone_number', 'invalid_format'),
      );
    },
  );

  test('a sandbox application has only its fixtures; the body must be an object', () => {
    expect(
      thrownDomainError(() => createLiveConnection(SANDBOX_APP, { phone_number: '+33123456789' }, NOW)),
    ).toMatchObject(invalid('application_id', 'sandbox_application'));
    for (const body of [null, [], 'x']) {
      expect(thrownDomainError(() => createLiveConnection(LIVE_APP, body, NOW))).toMatchObject(
        invalid('body', 'invalid_type'),
      );
    }
  });

  test('connectionView drops the emulator’s own fields', () => {
    const record: ConnectionRecord = {
      ...createLiveConnection(LIVE_APP, { phone_number: '+33123456789' }, NOW),
      templates: [],
    };
    const view = connectionView(record);
    expect(Object.keys(view).sort()).toEqual(
      [
        'created_at',
        'id',
        'livemode',
        'name',
        'object',
        'phone_number',
        'quality_rating',
        'status',
        'waba_id',
      ].sort(),
    );
  });
});

describe('createInboundMessage', () => {
  const connection = createLiveConnection(LIVE_APP, { phone_number: '+33123456789' }, NOW);

  test('a received live text from the customer, accepted now, nothing announced yet', () => {
    const record = createInboundMessage(connection, LIVE_APP, { from: '+33612345678', text: 'Salut' }, NOW);
    expect(record).toMatchObject({
      application_id: LIVE_APP.id,
      workspace_id: LIVE_APP.workspace_id,
      accepted_at: NOW,
      announced: 0,
      message: {
        direction: 'inbound',
        connection_id: connection.id,
        from: '+33612345678',
        to: null,
        text: 'Salut',
        status: 'received',
        livemode: true,
        created_at: '2026-10-14T09:30:00Z',
        updated_at: '2026-10-14T09:30:00Z',
      },
    });
  });

  test('text: 4096 characters (code points) accepted; 4097, empty or not a string refused', () => {
    const send = (text: unknown) =>
      createInboundMessage(connection, LIVE_APP, { from: '+33612345678', text }, NOW);
    expect(send('😀'.repeat(4096)).message.text).toBe('😀'.repeat(4096));
    for (const text of ['a'.repeat(4097), '', 42, undefined]) {
      expect(thrownDomainError(() => send(text))).toMatchObject(invalid('text', 'invalid_type'));
    }
  });

  test('from must be a phone number; the body an object', () => {
    expect(
      thrownDomainError(() =>
        createInboundMessage(connection, LIVE_APP, { from: 'x+33612345678', text: 't' }, NOW),
      ),
    ).toMatchObject(invalid('from', 'invalid_format'));
    expect(thrownDomainError(() => createInboundMessage(connection, LIVE_APP, null, NOW))).toMatchObject(
      invalid('body', 'invalid_type'),
    );
  });
});

import { testEvent } from '@parley/test-utils';
import { describe, expect, it } from 'vitest';
import { eventShapeProblem } from './_event-shape';

// Through the handler in malformed-events.test.ts; here what the handler cannot reach (verifyWebhook
// refuses a body that is not an object first) and the edges of each JSON type.

const envelope = { ...testEvent(), data: {} } as Record<string, unknown>;

describe('eventShapeProblem', () => {
  it('names what the event itself is when it is not an object', () => {
    expect([[], null, 'evt', 1, true, undefined].map(eventShapeProblem)).toEqual([
      'The event must be an object (got an array)',
      'The event must be an object (got null)',
      'The event must be an object (got a string)',
      'The event must be an object (got a number)',
      'The event must be an object (got a boolean)',
      'The event must be an object (got nothing)',
    ]);
  });

  it('takes empty text and false as text and a boolean; a string is not a boolean', () => {
    expect(eventShapeProblem({ ...testEvent(), api_version: '', livemode: false })).toBeUndefined();
    expect(eventShapeProblem({ ...testEvent(), livemode: true })).toBeUndefined();
    expect(eventShapeProblem({ ...testEvent(), livemode: 'true' })).toBe(
      "The event's livemode must be a boolean (got a string)",
    );
    expect(eventShapeProblem({ ...testEvent(), data: { message: '' } })).toBeUndefined();
  });

  it('reads own fields only: an inherited data is none', () => {
    const inherited = Object.assign(Object.create({ data: {} }), { ...envelope });
    delete inherited.data;
    expect(eventShapeProblem(inherited)).toBe("The event's data must be an object (got nothing)");
  });

  it('knows no data of a type named like a member of Object.prototype: the envelope is enough', () => {
    for (const type of Object.getOwnPropertyNames(Object.prototype)) {
      expect([type, eventShapeProblem({ ...envelope, type })]).toEqual([type, undefined]);
    }
  });
});

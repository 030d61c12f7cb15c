import { describe, expect, it } from 'vitest';
import type { MessageStatus } from '../wire/message';
import { isOrderedStatus, isStaleStatus } from './_status-order';

const ORDER: MessageStatus[] = ['queued', 'sent', 'delivered', 'read'];

describe('isStaleStatus', () => {
  it('nothing is stale for a message without a recorded status', () => {
    for (const status of [...ORDER, 'failed', 'received'] as const)
      expect(isStaleStatus(undefined, status)).toBe(false);
  });

  it('queued < sent < delivered < read: older or equal is stale, newer is not', () => {
    ORDER.forEach((recorded, recordedRank) => {
      ORDER.forEach((status, rank) => {
        expect([recorded, status, isStaleStatus(recorded, status)]).toEqual([
          recorded,
          status,
          rank <= recordedRank,
        ]);
      });
    });
  });

  it('failed is final: nothing after it is newer, and it is newer than any other', () => {
    for (const status of [...ORDER, 'failed'] as const) expect(isStaleStatus('failed', status)).toBe(true);
    for (const recorded of ORDER) expect(isStaleStatus(recorded, 'failed')).toBe(false);
  });

  it('a status outside the order is never stale, and never recorded', () => {
    expect(isStaleStatus('read', 'received')).toBe(false);
    expect(isStaleStatus('received', 'sent')).toBe(false);
    expect(isStaleStatus('read', 'bounced' as MessageStatus)).toBe(false);
    expect(isStaleStatus('toString' as MessageStatus, 'sent')).toBe(false);
    expect([...ORDER, 'failed'].every((status) => isOrderedStatus(status as MessageStatus))).toBe(true);
    for (const status of ['received', 'bounced', 'toString', 'constructor'])
      expect(isOrderedStatus(status as MessageStatus)).toBe(false);
  });

  it('a status named like a member of Object.prototype is never stale, makes nothing stale, and is never recorded', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype) as MessageStatus[]) {
      expect([name, isStaleStatus('failed', name), isOrderedStatus(name)]).toEqual([name, false, false]);
      for (const status of [...ORDER, 'failed'] as const) {
        expect([name, status, isStaleStatus(name, status)]).toEqual([name, status, false]);
      }
    }
  });
});

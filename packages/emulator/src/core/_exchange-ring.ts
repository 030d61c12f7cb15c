import type { ActivityEntry } from './activity-feed';
import type { EmulatorCore } from './emulator-core';

/**
 * One answered /v1 call as the HAR shows it; headers and bodies are masked when the HAR is built.
 * Only strings and the parser's own lists are kept, never the Request: a kept Request holds Node's
 * IncomingMessage and its stream state, and 500 of them moved to the old generation are GC work on
 * every call (issue 23). What the call's activity item already says (method, path, request id,
 * caller, time, duration) is read from it, not kept twice: whatever a call keeps survives into the
 * old generation, and that copying is most of what recording costs.
 */
export interface Exchange {
  /** The call's activity entry (a `request` item). */
  activity: ActivityEntry;
  /** The request's URL as h3 parsed it (its text is built only when a HAR is). */
  url: URL;
  /**
   * The request's headers: served over node:http, Node's raw list (`[name, value, …]`, the strings
   * its parser already made); in process, the Request's own `Headers`.
   */
  requestHeaders: readonly string[] | Headers;
  /** The JSON body as the handler read it, or undefined when none was read. */
  requestBody: string | undefined;
  /** The answer's status (the activity item says 0 when an injected fault sent none). */
  status: number;
  responseHeaders: Readonly<Record<string, string>> | undefined;
  responseBody: string | undefined;
}

/** How many recent /v1 exchanges `GET /_emulator/har` can show. */
export const KEPT_EXCHANGES = 500;
/** The most body text (requests' and answers') kept for them: older exchanges go first. */
export const KEPT_EXCHANGE_BYTES = 8 * 1024 * 1024;

/**
 * The recent /v1 exchanges with their headers and bodies (the activity history keeps neither),
 * bounded by {@link KEPT_EXCHANGES} and {@link KEPT_EXCHANGE_BYTES}. Nothing is copied or masked
 * per call: masking happens when a HAR is built, as the activity feed does. The slots are one array
 * of fixed size written round by an index, so a call never grows, shifts or splices it.
 */
export class ExchangeRing {
  readonly #slots: (Exchange | undefined)[] = new Array<Exchange | undefined>(KEPT_EXCHANGES).fill(undefined);
  /** The slot the next exchange goes to. */
  #next = 0;
  #count = 0;
  #bytes = 0;

  add(exchange: Exchange): void {
    if (this.#count === KEPT_EXCHANGES) this.#dropOldest();
    this.#slots[this.#next] = exchange;
    this.#next = (this.#next + 1) % KEPT_EXCHANGES;
    this.#count++;
    this.#bytes += sizeOf(exchange);
    // The newest is always kept, even when it alone is over the bound.
    while (this.#bytes > KEPT_EXCHANGE_BYTES && this.#count > 1) this.#dropOldest();
  }

  /** The kept exchanges, oldest first. */
  list(): Exchange[] {
    const kept: Exchange[] = [];
    const oldest = this.#oldestSlot();
    for (let index = 0; index < this.#count; index++) {
      kept.push(this.#slots[(oldest + index) % KEPT_EXCHANGES]!);
    }
    return kept;
  }

  /** Bytes of body text kept. */
  get bytes(): number {
    return this.#bytes;
  }

  clear(): void {
    this.#slots.fill(undefined);
    this.#next = 0;
    this.#count = 0;
    this.#bytes = 0;
  }

  #oldestSlot(): number {
    return (this.#next - this.#count + KEPT_EXCHANGES) % KEPT_EXCHANGES;
  }

  #dropOldest(): void {
    const slot = this.#oldestSlot();
    this.#bytes -= sizeOf(this.#slots[slot]!);
    // Let go of it now, not when the slot comes round again.
    this.#slots[slot] = undefined;
    this.#count--;
  }
}

function sizeOf(exchange: Exchange): number {
  return (exchange.requestBody?.length ?? 0) + (exchange.responseBody?.length ?? 0);
}

const rings = new WeakMap<EmulatorCore, ExchangeRing>();

/** The exchange ring of an emulator, created on first use (looked up once per app, not per call). */
export function exchangesOf(core: EmulatorCore): ExchangeRing {
  let ring = rings.get(core);
  if (!ring) {
    ring = new ExchangeRing();
    rings.set(core, ring);
  }
  return ring;
}

import type { EmulatorCore } from './emulator-core';

/** One answered /v1 call as the HAR shows it; headers and bodies are masked when the HAR is built. */
export interface Exchange {
  /** The request as it came (its headers are read when a HAR is built). */
  request: Request;
  /** The request's URL as h3 parsed it (its text is built only when a HAR is). */
  url: URL;
  /** The JSON body the handler read, or undefined when none was read (or it was not JSON). */
  requestBody: string | undefined;
  status: number;
  responseHeaders: Readonly<Record<string, string>> | undefined;
  responseBody: string | undefined;
  requestId: string | undefined;
  /** Global emulator time when it came in (its workspace's is taken from the activity history). */
  atMs: number;
  durationMs: number;
}

/** How many recent /v1 exchanges `GET /_emulator/har` can show. */
export const KEPT_EXCHANGES = 500;
/** The most body text (requests' and answers') kept for them: older exchanges go first. */
export const KEPT_EXCHANGE_BYTES = 8 * 1024 * 1024;

/**
 * The recent /v1 exchanges with their headers and bodies (the activity history keeps neither),
 * bounded by {@link KEPT_EXCHANGES} and {@link KEPT_EXCHANGE_BYTES}. Nothing is copied or masked
 * per call: masking happens when a HAR is built, as the activity feed does.
 */
export class ExchangeRing {
  readonly #exchanges: Exchange[] = [];
  #start = 0;
  #bytes = 0;

  add(exchange: Exchange): void {
    this.#exchanges.push(exchange);
    this.#bytes += sizeOf(exchange);
    while (
      this.#exchanges.length - this.#start > KEPT_EXCHANGES ||
      (this.#bytes > KEPT_EXCHANGE_BYTES && this.#exchanges.length - this.#start > 1)
    ) {
      this.#bytes -= sizeOf(this.#exchanges[this.#start]!);
      this.#start++;
    }
    // Trimmed in batches: one splice per hundred dropped, not a shift per call.
    if (this.#start >= 100) {
      this.#exchanges.splice(0, this.#start);
      this.#start = 0;
    }
  }

  /** The kept exchanges, oldest first. */
  list(): Exchange[] {
    return this.#exchanges.slice(this.#start);
  }

  /** Bytes of body text kept. */
  get bytes(): number {
    return this.#bytes;
  }

  clear(): void {
    this.#exchanges.length = 0;
    this.#start = 0;
    this.#bytes = 0;
  }
}

function sizeOf(exchange: Exchange): number {
  return (exchange.requestBody?.length ?? 0) + (exchange.responseBody?.length ?? 0);
}

const rings = new WeakMap<EmulatorCore, ExchangeRing>();

/** The exchange ring of an emulator, created on first use. */
export function exchangesOf(core: EmulatorCore): ExchangeRing {
  let ring = rings.get(core);
  if (!ring) {
    ring = new ExchangeRing();
    rings.set(core, ring);
  }
  return ring;
}

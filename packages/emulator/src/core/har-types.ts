// Types only: the typed client (`@parley/emulator/control`) imports this file through control-types.ts.

/** `GET /_emulator/har` options. */
export interface HarOptions {
  /** Only exchanges at or after this emulator time (ISO 8601). */
  since?: string;
  /** Only the traffic of this workspace's keys and endpoints. */
  workspaceId?: string;
  /** Also the webhook delivery attempts, as requests the emulator sent (default false). */
  deliveries?: boolean;
}

/** A name and a value (a header, a query parameter). */
export interface HarNameValue {
  name: string;
  value: string;
}

/** One request and its answer (HAR 1.2 `entry`). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/). */
export interface HarLog {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}

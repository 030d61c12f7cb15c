import type { HttpClient } from '../core/_http-client';

/** Base of every resource: holds the HTTP client the one-line methods call. */
export abstract class Resource {
  declare protected readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }
}

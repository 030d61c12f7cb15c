import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { type EmulatorServer, startEmulatorServer } from './start-server';

const servers: EmulatorServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

// The in-memory cases of this rule are in http/v1-unknown-route.test.ts.
describe('an unknown /v1 route', () => {
  test('TRACE /v1/status over a socket (fetch cannot send TRACE)', async () => {
    const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    servers.push(server);
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const request = httpRequest(
          `${server.baseUrl}/status`,
          { method: 'TRACE', headers: { authorization: `Bearer ${server.sandboxKey}` } },
          (response) => {
            let body = '';
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
            );
          },
        );
        request.on('error', reject);
        request.end();
      },
    );
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error.message).toBe('No route for TRACE /v1/status.');
    expect(answer.headers['ratelimit-remaining']).toBe('59');
  });
});

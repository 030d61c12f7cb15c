// Baseline of the cold-start row: the least a Node server does before it can answer, node:http
// listening on 127.0.0.1 and printing a ready line as the emulator's `--json` does.
import { createServer } from 'node:http';

const server = createServer((_request, response) => response.end('{}'));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({ ready: true, base_url: `http://127.0.0.1:${server.address().port}/v1` })}\n`,
  );
});

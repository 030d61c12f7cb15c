// Baseline: a bare h3 2 app behind Node's http server (as the emulator is served). It answers the
// same JSON documents as the emulator (STATUS_JSON, MESSAGE_JSON: the emulator's own answers, which
// the bench fetches first), or padding of STATUS_BYTES / MESSAGE_BYTES when none is given.
import { createServer } from 'node:http';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';

const pad = (bytes) => ({ pad: 'x'.repeat(Math.max(0, Number(bytes ?? 400) - 10)) });
// Idiomatic h3: handlers return plain objects, which h3 serialises itself, on every request.
const statusBody = process.env.STATUS_JSON
  ? JSON.parse(process.env.STATUS_JSON)
  : pad(process.env.STATUS_BYTES);
const messageBody = process.env.MESSAGE_JSON
  ? JSON.parse(process.env.MESSAGE_JSON)
  : pad(process.env.MESSAGE_BYTES);

const app = new H3();
app.get('/v1/status', () => statusBody);
app.post('/v1/messages', async (event) => {
  JSON.parse(await event.req.text());
  event.res.status = 202;
  return messageBody;
});

const server = createServer(toNodeHandler(app));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(
  `${JSON.stringify({ ready: true, base_url: `http://127.0.0.1:${server.address().port}/v1` })}\n`,
);

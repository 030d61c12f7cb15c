// Baseline: a bare h3 2 app behind Node's http server (as the emulator is served), answering JSON of the same sizes as the emulator.
import { createServer } from 'node:http';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';

// Idiomatic h3: handlers return plain objects, which h3 serialises itself.
const statusBody = { pad: 'x'.repeat(Math.max(0, Number(process.env.STATUS_BYTES ?? 400) - 10)) };
const messageBody = { pad: 'x'.repeat(Math.max(0, Number(process.env.MESSAGE_BYTES ?? 400) - 10)) };

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

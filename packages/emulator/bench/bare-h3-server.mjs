// Baseline: a bare h3 2 app behind listhen, answering JSON of the same sizes as the emulator.
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { listen } from 'listhen';

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

const listener = await listen(toNodeHandler(app), {
  port: { port: 0, random: true, alternativePortRange: [], portRange: [], verbose: false },
  hostname: '127.0.0.1',
  showURL: false,
  autoClose: false,
  public: false,
  qr: false,
});
process.stdout.write(
  `${JSON.stringify({ ready: true, base_url: `http://127.0.0.1:${listener.address.port}/v1` })}\n`,
);

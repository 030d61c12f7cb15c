// Reference of `pnpm bench` section 8: the bare h3 baseline's two routes on node:http alone, no
// framework. It answers what bare-h3-server.mjs answers (STATUS_JSON, MESSAGE_JSON, serialised on
// each request as h3 does): the difference between the two is what h3's layer costs a request.
// It reads a body whole as the bare h3 app does (`event.req.text()`): a baseline fed only by the
// bench's own autocannon on 127.0.0.1, not a server for outside input.
import { createServer } from 'node:http';

const statusBody = JSON.parse(process.env.STATUS_JSON ?? '{}');
const messageBody = JSON.parse(process.env.MESSAGE_JSON ?? '{}');

function answerJson(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/v1/status') {
    answerJson(response, 200, statusBody);
    return;
  }
  if (request.method === 'POST' && request.url === '/v1/messages') {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      JSON.parse(text);
      answerJson(response, 202, messageBody);
    });
    return;
  }
  answerJson(response, 404, {});
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(
  `${JSON.stringify({ ready: true, base_url: `http://127.0.0.1:${server.address().port}/v1` })}\n`,
);

'use strict';
// The runtime smoke itself, shared by smoke.mjs (ESM), smoke.cjs (CommonJS) and worker.mjs (workerd):
// status, send, get, then a genuine webhook delivery verified and the same one tampered refused.
// It uses only fetch and the SDK handed in, so it runs unchanged on Node, Bun, Deno and workerd.
// config: { baseUrl, controlUrl, apiKey, connectionId, deliveriesUrl, secret, label }. The delivery comes from
// the emulator through runtime-smoke.mjs's receiver, which answers GET <deliveriesUrl>/<event id>
// with the body and Parley-* headers exactly as the emulator sent them.

/**
 * @param {{ Parley: any, verifyWebhook: any, isWebhookVerificationError: any, createWebhookHandler: any }} sdk
 * @param {{ baseUrl: string, controlUrl: string, apiKey: string, connectionId: string, deliveriesUrl: string, secret: string, label: string }} config
 */
async function runSmoke(sdk, config) {
  const { Parley, verifyWebhook, isWebhookVerificationError, createWebhookHandler } = sdk;
  const steps = [];
  const step = async (name, run) => {
    try {
      steps.push(`${name} ${await run()}`);
    } catch (error) {
      throw new Error(`${name}: ${error?.stack ? error.stack : error}\n(after: ${steps.join(', ')})`);
    }
  };
  const parley = new Parley({ apiKey: config.apiKey, baseUrl: config.baseUrl, maxRetries: 1 });

  await step('status', async () => {
    const status = await parley.status.get();
    if (status.environment !== 'sandbox') throw new Error(JSON.stringify(status));
    return status.environment;
  });
  let message;
  await step('send', async () => {
    message = await parley.messages.send({
      type: 'template',
      connection_id: config.connectionId,
      to: '+33612345678',
      template: { name: 'hello_world', language: 'en' },
      client_reference: config.label,
    });
    if (message.status !== 'queued') throw new Error(JSON.stringify(message));
    return message.status;
  });
  await step('get', async () => {
    const fetched = await parley.messages.get(message.id);
    if (fetched.id !== message.id || fetched.client_reference !== config.label) {
      throw new Error(JSON.stringify(fetched));
    }
    return fetched.status;
  });

  let delivery;
  await step('webhook', async () => {
    const queued = await parley.sandbox.events.create({ type: 'message.received' });
    const response = await fetch(`${config.deliveriesUrl}/${queued.id}`);
    if (response.status !== 200)
      throw new Error(`receiver answered ${response.status}: ${await response.text()}`);
    // As a web-standard receiver has it: the raw text and a Headers object.
    delivery = { body: await response.text(), headers: response.headers };
    const event = await verifyWebhook(delivery.body, delivery.headers, config.secret);
    if (event.id !== queued.id || event.type !== 'message.received') throw new Error(JSON.stringify(event));
    return 'verified';
  });
  await step('tampered', async () => {
    const at = delivery.body.indexOf('"text":"') + '"text":"'.length;
    const tampered =
      delivery.body.slice(0, at) + (delivery.body[at] === 'x' ? 'y' : 'x') + delivery.body.slice(at + 1);
    try {
      await verifyWebhook(tampered, delivery.headers, config.secret);
    } catch (error) {
      if (isWebhookVerificationError(error) && error.reason === 'signature_mismatch') return 'refused';
      throw error;
    }
    throw new Error('a tampered body was accepted');
  });
  await step('handler', async () => {
    // createWebhookHandler on this runtime: the genuine delivery handled once, its repeat answered as
    // a duplicate without calling the handler again, the tampered one refused with its reason.
    let handled = 0;
    const handler = createWebhookHandler({
      secret: config.secret,
      on: { 'message.received': async () => void handled++ },
    });
    const post = (body) =>
      handler(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers: delivery.headers, body }));
    const first = await post(delivery.body);
    const again = await post(delivery.body);
    const tampered = await post(
      delivery.body.replace('"type":"message.received"', '"type":"message.receivedX"'),
    );
    const outcome = (response) => `${response.status}/${response.headers.get('parley-webhook-outcome')}`;
    const seen = [outcome(first), outcome(again), String(tampered.status), String(handled)].join(' ');
    if (seen !== '204/processed 204/duplicate 400 1') throw new Error(seen);
    return 'processed once';
  });
  await step('trace', async () => {
    // A span recorded on this runtime (issue 28): a traced call's call and attempt spans, and the
    // traceparent the emulator received from the attempt, read back from its activity feed.
    const tracer = recordingTracer();
    const traced = new Parley({ apiKey: config.apiKey, baseUrl: config.baseUrl, maxRetries: 0, tracer });
    await traced.status.get();
    const [call, attempt, ...more] = tracer.spans;
    const requestId = attempt?.attributes['parley.request_id'];
    const shape = (span) => span && `${span.name}/${span.kind}/${span.ended}`;
    if (more.length || shape(call) !== 'GET /v1/status/2/true' || shape(attempt) !== 'GET /v1/status/2/true')
      throw new Error(`spans: ${JSON.stringify(tracer.spans.map(shape))}`);
    if (attempt.parent !== call || attempt.traceId !== call.traceId || typeof requestId !== 'string')
      throw new Error(`attempt span not a child of the call span, or no parley.request_id: ${requestId}`);
    const activity = await fetch(`${config.controlUrl}/activity?type=request&limit=50`).then((r) => r.json());
    const item = activity.data.find((candidate) => candidate.request_id === requestId);
    const sent = `00-${attempt.traceId}-${attempt.spanId}-01`;
    if (item?.traceparent !== sent)
      throw new Error(`the emulator received ${JSON.stringify(item?.traceparent)}, the span is ${sent}`);
    return `${attempt.name} CLIENT span, emulator received ${sent}`;
  });
  return steps;
}

/**
 * The smallest OpenTelemetry tracer the SDK accepts (its types are structural): it records each
 * span's name, kind, ids, parent, attributes and end, with no @opentelemetry package on the runtime.
 */
function recordingTracer() {
  // The key @opentelemetry/api keeps a context's span under: the SDK hands the call's span to the
  // attempt's startSpan this way.
  const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
  const hex = (bytes) =>
    Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('');
  const spans = [];
  const startSpan = (name, options = {}, context) => {
    const parent = context?.getValue(SPAN_KEY);
    const span = {
      name,
      kind: options.kind,
      parent,
      traceId: parent ? parent.traceId : hex(16),
      spanId: hex(8),
      attributes: { ...options.attributes },
      ended: false,
      spanContext: () => ({ traceId: span.traceId, spanId: span.spanId, traceFlags: 1 }),
      setAttribute(key, value) {
        span.attributes[key] = value;
      },
      setAttributes(attributes) {
        Object.assign(span.attributes, attributes);
      },
      setStatus(status) {
        span.status = status;
      },
      recordException(exception) {
        span.exception = String(exception);
      },
      updateName(next) {
        span.name = next;
      },
      end() {
        span.ended = true;
      },
    };
    spans.push(span);
    return span;
  };
  return { spans, startSpan, startActiveSpan: (name, options, run) => run(startSpan(name, options)) };
}

/** Where a resolved `@parley/sdk/webhooks` file lives: `dist/node/…` is the `node` build. */
function buildOf(resolved) {
  const path = String(resolved).replace(/\\/g, '/');
  const file = path.slice(path.lastIndexOf('/@parley/sdk/') + '/@parley/sdk/'.length);
  return { file, build: file.startsWith('dist/node/') ? 'node' : 'default' };
}

/**
 * Watches which HMAC the SDK really computes with, from before its first verification: the node
 * build fetches node:crypto through process.getBuiltinModule on first use, the default build calls
 * crypto.subtle.sign. Returns a function that names what was seen.
 */
function watchHmac() {
  const seen = new Set();
  const proc = globalThis.process;
  if (proc && typeof proc.getBuiltinModule === 'function') {
    const original = proc.getBuiltinModule;
    proc.getBuiltinModule = function getBuiltinModule(id) {
      const loaded = original.call(this, id);
      if ((id === 'node:crypto' || id === 'crypto') && loaded) seen.add('node:crypto');
      return loaded;
    };
  }
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const sign = subtle.sign;
    subtle.sign = function signSpy(...args) {
      seen.add('Web Crypto');
      return sign.apply(this, args);
    };
  }
  return () => (seen.size ? [...seen].join(' + ') : 'none seen');
}

function runtimeName() {
  if (typeof globalThis.Bun !== 'undefined') return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.Deno !== 'undefined') return `deno ${globalThis.Deno.version.deno}`;
  if (globalThis.navigator && globalThis.navigator.userAgent === 'Cloudflare-Workers') return 'workerd';
  return `node ${globalThis.process.versions.node}`;
}

module.exports = { runSmoke, buildOf, watchHmac, runtimeName };

// The runtime smoke as CommonJS: `node|bun smoke.cjs`, `deno run … smoke.cjs`. See smoke.mjs.
const { createWebhookHandler, isWebhookVerificationError, verifyWebhook } = require('@parley/sdk/webhooks');
const { Parley } = require('@parley/sdk');
const core = require('./smoke-core.cjs');

const config = JSON.parse(process.env.PARLEY_SMOKE);
const webhooks = core.buildOf(require.resolve('@parley/sdk/webhooks'));
const client = core.buildOf(require.resolve('@parley/sdk'));
const result = { runtime: core.runtimeName(), module: 'cjs', webhooks, client };
const hmac = core.watchHmac();
core
  .runSmoke({ Parley, verifyWebhook, isWebhookVerificationError, createWebhookHandler }, config)
  .then(
    (steps) => Object.assign(result, { ok: true, steps }),
    (error) => Object.assign(result, { ok: false, error: String(error?.message ? error.message : error) }),
  )
  .then(() => {
    result.hmac = hmac();
    console.log(JSON.stringify(result));
  });

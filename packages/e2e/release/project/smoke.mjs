// The runtime smoke as an ES module: `node|bun smoke.mjs`, `deno run … smoke.mjs`. Config in
// $PARLEY_SMOKE (JSON, see smoke-core.cjs); prints one JSON line: the build taken and the steps.

import { Parley } from '@parley/sdk';
import { createWebhookHandler, isWebhookVerificationError, verifyWebhook } from '@parley/sdk/webhooks';
import core from './smoke-core.cjs';

const config = JSON.parse(process.env.PARLEY_SMOKE);
const webhooks = core.buildOf(import.meta.resolve('@parley/sdk/webhooks'));
const client = core.buildOf(import.meta.resolve('@parley/sdk'));
const result = { runtime: core.runtimeName(), module: 'esm', webhooks, client };
const hmac = core.watchHmac();
try {
  result.steps = await core.runSmoke(
    { Parley, verifyWebhook, isWebhookVerificationError, createWebhookHandler },
    config,
  );
  result.ok = true;
} catch (error) {
  result.ok = false;
  result.error = String(error?.message ? error.message : error);
}
result.hmac = hmac();
console.log(JSON.stringify(result));

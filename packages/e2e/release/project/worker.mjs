// The runtime smoke as a Worker for workerd (through miniflare): runtime-smoke.mjs bundles this file
// with esbuild under the export conditions Wrangler uses (`workerd`, `worker`, `browser`; no `node`),
// and reads from the bundle's metafile which SDK files went in. The config is the SMOKE binding.

import { Parley } from '@parley/sdk';
import { createWebhookHandler, isWebhookVerificationError, verifyWebhook } from '@parley/sdk/webhooks';
import core from './smoke-core.cjs';

export default {
  async fetch(_request, env) {
    const result = { runtime: core.runtimeName(), module: 'esm' };
    const hmac = core.watchHmac();
    try {
      result.steps = await core.runSmoke(
        { Parley, verifyWebhook, isWebhookVerificationError, createWebhookHandler },
        JSON.parse(env.SMOKE),
      );
      result.ok = true;
    } catch (error) {
      result.ok = false;
      result.error = String(error?.message ? error.message : error);
    }
    result.hmac = hmac();
    return Response.json(result);
  },
};

import { z } from 'zod';
import { doctor } from '../commands/webhooks/doctor';
import { createContext } from '../context';
import { defineTool, type ToolSpec } from './_tool-spec';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The tools that check the developer's own webhook receiver. */
export const RECEIVER_TOOLS: readonly ToolSpec[] = [
  defineTool({
    name: 'doctor_webhook_receiver',
    title: 'Grade a webhook receiver',
    description:
      "The `parley webhooks doctor` battery against a receiver on loopback: signed deliveries it must accept, forged and stale ones it must refuse, a duplicate, a rotation, statuses out of order, and how fast it answers. Needs the receiver's signing secret (create_endpoint's, or PARLEY_WEBHOOK_SECRET).",
    group: 'receivers',
    input: z.strictObject({
      url: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .refine((url) => LOOPBACK.has(new URL(url).hostname), {
          message: 'must be on loopback (127.0.0.1, [::1] or localhost)',
        })
        .describe('the receiver, e.g. http://127.0.0.1:3000/webhooks'),
      secret: z
        .string()
        .startsWith('whsec_')
        .max(256)
        .optional()
        .describe("the receiver's signing secret (default: PARLEY_WEBHOOK_SECRET)"),
      timeout_seconds: z
        .number()
        .positive()
        .max(15)
        .optional()
        .describe('wait this long for each answer (default 15)'),
    }),
    output: z.looseObject({ ok: z.boolean(), counts: z.looseObject({}), cases: z.array(z.looseObject({})) }),
    readOnly: true,
    run: async ({ url, secret, timeout_seconds }, target) => {
      // The battery is the command's own function, run with the server's network and environment.
      const context = createContext({
        env: target.env,
        signal: target.signal,
        fetch: target.fetch,
        stdout: { write: () => true },
        stderr: { write: () => true },
      });
      return {
        ...(await doctor(
          {
            url,
            ...(secret ? { secret: [secret] } : {}),
            ...(timeout_seconds ? { timeout: timeout_seconds } : {}),
          },
          context,
        )),
      };
    },
  }),
];

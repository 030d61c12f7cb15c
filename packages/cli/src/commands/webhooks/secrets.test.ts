import { describe, expect, it } from 'vitest';
import { testContext } from '../../_test/test-context';
import { webhookSecrets } from './_secrets';
import { sign } from './sign';
import { verify } from './verify';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const HINT =
  "pass the endpoint's signing secret, whsec_…, as the console or `parley listen --print-secret` shows it";

describe('webhook secrets: only whsec_ secrets', () => {
  it('refuses a secret that is not whsec_ (exit 2), naming where it came from and never echoing it', () => {
    const refusal = (flags: string[] | undefined, env: Record<string, string> = {}) => {
      try {
        webhookSecrets(flags, env);
      } catch (error) {
        return error as { code: number; message: string };
      }
      return undefined;
    };
    expect(refusal(['nope'])).toMatchObject({ code: 2, message: `--secret is not a whsec_ secret: ${HINT}` });
    expect(refusal([SECRET, 'whsec_'])).toMatchObject({
      code: 2,
      message: `--secret #2 is not a whsec_ secret: ${HINT}`,
    });
    expect(
      refusal(undefined, { PARLEY_WEBHOOK_SECRET: 'prl_sandbox_parleyEmulatorDefaultSandboxKey1' }),
    ).toMatchObject({
      code: 2,
      message: `PARLEY_WEBHOOK_SECRET is not a whsec_ secret (it looks like an API key): ${HINT}`,
    });
    expect(refusal(['WHSEC_x'])?.message).not.toContain('WHSEC_x');
  });

  it('takes whsec_ and one character or more, from the flags or the environment', () => {
    expect(webhookSecrets(['whsec_x', SECRET], {})).toEqual(['whsec_x', SECRET]);
    expect(webhookSecrets(undefined, { PARLEY_WEBHOOK_SECRET: SECRET })).toEqual([SECRET]);
  });

  it('verify and sign refuse --secret nope before reading any file', async () => {
    const missing = '/nonexistent/parley-body.json';
    await expect(
      verify({ secret: ['nope'], headers: missing, body: missing }, testContext()),
    ).rejects.toMatchObject({ code: 2, message: `--secret is not a whsec_ secret: ${HINT}` });
    await expect(sign({ secret: ['nope'], body: missing }, testContext())).rejects.toMatchObject({
      code: 2,
      message: `--secret is not a whsec_ secret: ${HINT}`,
    });
  });
});

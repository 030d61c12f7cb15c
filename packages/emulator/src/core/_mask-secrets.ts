const API_KEY = /\b(prl_(?:sandbox|live)_[A-Za-z0-9]{4})[A-Za-z0-9]{28,}/g;
const SIGNING_SECRET = /\bwhsec_[A-Za-z0-9]{32,}/g;

/**
 * Masks API keys and signing secrets wherever they appear in a text: a key keeps only its
 * display prefix (`prl_sandbox_AbCd…`, what the console shows of a key anyway), a secret only
 * `whsec_…`. Activity items hold no secret by construction; this also covers what a caller typed
 * where a secret does not belong (a key in a URL path, a secret in a message text).
 */
export function maskSecrets(text: string): string {
  return text.replace(API_KEY, '$1…').replace(SIGNING_SECRET, 'whsec_…');
}

// The emulator masks keys and secrets in its activity items, but a tool also relays what a
// receiver answered, a message's text, a delivery's error: anything shaped like a key or a signing
// secret is masked in every result, whoever put it there.
const API_KEY = /prl_(sandbox|live)_[A-Za-z0-9]{4}[A-Za-z0-9]+/g;
const SIGNING_SECRET = /whsec_[A-Za-z0-9+/=_-]+/g;

/** `text` with every API key shown as `prl_sandbox_AbCd…` and every signing secret as `whsec_…`. */
export function scrubSecrets(text: string): string {
  return text
    .replace(API_KEY, (key, environment: string) => `${key.slice(0, `prl_${environment}_`.length + 4)}…`)
    .replace(SIGNING_SECRET, 'whsec_…');
}

/** A JSON value with {@link scrubSecrets} applied to every string in it, property names included. */
export function scrubbedData<Value>(value: Value): Value {
  return JSON.parse(scrubSecrets(JSON.stringify(value) ?? 'null')) as Value;
}

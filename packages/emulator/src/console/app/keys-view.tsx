import { useState } from 'preact/hooks';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { LoadError } from './empty';
import { useLiveData } from './live-data';
import { RevealSecret, type Secret } from './reveal-secret';
import { UsageTable } from './usage-table';

/** Keys of the application: create (shown once), revoke, and what each used of its buckets. */
export function KeysView({ app }: { app: Application }) {
  const { config, act } = useConsole();
  const [secret, setSecret] = useState<Secret | null>(null);
  const usage = useLiveData(
    () => control.usage(app.id),
    [app.id],
    // Every /v1 request counts in a key's buckets.
    ['request', 'control', 'reset'],
  );
  const live = app.environment === 'live';
  const create = (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    void act(async () => {
      const body: { scopes: string[]; accept_agreement?: boolean } = {
        scopes: fields.getAll('scope').map(String),
      };
      if (live) body.accept_agreement = fields.get('accept_agreement') === 'on';
      const created = await control.createKey(app.id, body);
      setSecret({ title: 'API key', value: created.key, note: `Scopes: ${created.scopes.join(', ')}` });
      return 'API key created.';
    });
  };
  return (
    <section id="keys" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys and usage</h2>
      <form id="key-form" onSubmit={create}>
        <fieldset id="key-scopes">
          <legend>Scopes</legend>
          {config.scopes.map((scope) => (
            <label key={scope}>
              <input type="checkbox" name="scope" value={scope} defaultChecked />
              <code>{scope}</code>
            </label>
          ))}
        </fieldset>
        {live && (
          <div class="field" id="key-agreement-field">
            <label>
              <input type="checkbox" name="accept_agreement" /> I accept the developer agreement (needed for a
              workspace's first live key)
            </label>
          </div>
        )}
        <button type="submit" class="primary">
          Create key
        </button>
      </form>
      <RevealSecret id="key-secret" secret={secret} onDone={() => setSecret(null)} />
      <LoadError error={usage.error} />
      <div id="usage-list">{usage.data && <UsageTable usage={usage.data} live={live} />}</div>
    </section>
  );
}

import { useState } from 'preact/hooks';
import { api, path, query } from './api';
import { useConsole } from './console-context';
import type { Application, CreatedKey, Usage } from './control-types';
import { Empty, LoadError } from './empty';
import { useLiveData } from './live-data';
import { RevealSecret, type Secret } from './reveal-secret';

/** Keys of the application: create (shown once), revoke, and what each used of its buckets. */
export function KeysView({ app }: { app: Application }) {
  const { config, act } = useConsole();
  const [secret, setSecret] = useState<Secret | null>(null);
  const usage = useLiveData(
    () => api<Usage>('GET', `/_emulator/usage${query({ application_id: app.id })}`),
    [app.id],
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
      const created = await api<CreatedKey>('POST', path`/_emulator/applications/${app.id}/keys`, body);
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

function UsageTable({ usage, live }: { usage: Usage; live: boolean }) {
  const { act } = useConsole();
  const revoke = (keyId: string, prefix: string) =>
    act(async () => {
      if (!confirm(`Revoke the key ${prefix}…? Requests with it will get 401 invalid_api_key.`)) return '';
      await api('DELETE', path`/_emulator/keys/${keyId}`);
      return 'Key revoked.';
    });
  const figures = (bucket: { used: number; limit: number }) => `${bucket.used} / ${bucket.limit}`;
  return (
    <>
      {usage.keys.length === 0 ? (
        <Empty>No key yet.</Empty>
      ) : (
        <table>
          <caption class="sr-only">Keys and their use of the current one-minute window</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Requests</th>
              <th scope="col">Sends</th>
              <th scope="col">Templates</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {usage.keys.map((key) => (
              <tr key={key.key_id}>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{figures(key.buckets.requests)}</td>
                <td>{figures(key.buckets.sends)}</td>
                <td>{figures(key.buckets.templates)}</td>
                <td class="actions">
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke key ${key.prefix}…`}
                    onClick={() => revoke(key.key_id, key.prefix)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {live ? (
        usage.workspaces.map((workspace) => (
          <p class="muted" key={workspace.workspace_id}>
            Workspace sends today ({workspace.day} UTC): {workspace.sends_today} of {workspace.daily_limit}.
          </p>
        ))
      ) : (
        <p class="muted">Sandbox keys have the per-minute limits and no daily cap.</p>
      )}
      {!usage.rate_limits_enabled && <p class="muted">Rate limits are off.</p>}
    </>
  );
}

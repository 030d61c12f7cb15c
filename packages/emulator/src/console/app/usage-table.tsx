import { useConsole } from './console-context';
import { control } from './control';
import type { Usage } from './control-types';
import { type Column, DataTable } from './data-table';
import { Empty } from './empty';

type KeyUsage = Usage['keys'][number];

const figures = (bucket: { used: number; limit: number }) => `${bucket.used} / ${bucket.limit}`;

/** The application's keys with what each used of its buckets; revoke one; the daily cap of live workspaces. */
export function UsageTable({ usage, live }: { usage: Usage; live: boolean }) {
  const { act } = useConsole();
  const revoke = (keyId: string, prefix: string) =>
    act(async () => {
      if (!confirm(`Revoke the key ${prefix}…? Requests with it will get 401 invalid_api_key.`)) return '';
      await control.revokeKey(keyId);
      return 'Key revoked.';
    });
  const columns: Column<KeyUsage>[] = [
    { title: 'Key', cell: (key) => <code>{key.prefix}…</code> },
    { title: 'Requests', cell: (key) => figures(key.buckets.requests) },
    { title: 'Sends', cell: (key) => figures(key.buckets.sends) },
    { title: 'Templates', cell: (key) => figures(key.buckets.templates) },
    {
      title: 'Actions',
      hiddenTitle: true,
      class: 'actions',
      cell: (key) => (
        <button
          type="button"
          class="danger"
          aria-label={`Revoke key ${key.prefix}…`}
          onClick={() => revoke(key.key_id, key.prefix)}
        >
          Revoke
        </button>
      ),
    },
  ];
  return (
    <>
      {usage.keys.length === 0 ? (
        <Empty>No key yet.</Empty>
      ) : (
        <DataTable
          caption="Keys and their use of the current one-minute window"
          columns={columns}
          rows={usage.keys}
          rowKey={(key) => key.key_id}
        />
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

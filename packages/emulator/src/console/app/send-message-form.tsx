import type { SendMessageParams } from '@parley/sdk';
import { useState } from 'preact/hooks';
import {
  type EmulatorControlError,
  isEmulatorControlError,
} from '../../control-client/control-client-errors';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { errorText } from './format';
import { useLiveData } from './live-data';

/** The body of a template with its variables put in: `{{1}}` → the first, unfilled ones kept. */
export function fillTemplate(body: string, variables: readonly string[]): string {
  return body.replace(
    /\{\{(\d+)\}\}/g,
    (placeholder, index: string) => variables[Number(index) - 1] || placeholder,
  );
}

/** Sends a message as the application: a template with its variables, or a text. */
export function SendMessageForm({ app }: { app: Application }) {
  const { act } = useConsole();
  const connections = useLiveData(
    () => control.listApplicationConnections(app.id, { limit: 100 }),
    [app.id],
    ['control', 'reset'],
  );
  const [connectionId, setConnectionId] = useState('');
  const [kind, setKind] = useState<'template' | 'text'>('template');
  const [templateIndex, setTemplateIndex] = useState(0);
  const [variables, setVariables] = useState<string[]>([]);
  // The API's refusal of the recipient: its rule ("+" then 8 to 15 digits), said at the field.
  const [refusal, setRefusal] = useState<EmulatorControlError | null>(null);
  const all = connections.data?.data ?? [];
  const connection =
    all.find((candidate) => candidate.id === connectionId) ?? all.find((c) => c.status === 'active');
  const template = connection?.templates[templateIndex] ?? connection?.templates[0];
  if (connections.data && !connection) {
    return (
      <p class="empty">
        No active connection to send through
        {app.environment === 'live' ? ': add one under Connections.' : '.'}
      </p>
    );
  }
  const send = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    if (!connection) return;
    const message =
      kind === 'text'
        ? { type: 'text', text: String(fields.get('text')) }
        : {
            type: 'template',
            template: {
              name: template?.name,
              language: template?.language,
              variables: variables.slice(0, template?.variable_count ?? 0),
            },
          };
    void act(async () => {
      let sent: Awaited<ReturnType<typeof control.sendMessage>>;
      try {
        // As built from the form: the API checks the send and names the field it refuses.
        sent = await control.sendMessage(app.id, {
          connection_id: connection.id,
          to: String(fields.get('to')).trim(),
          ...message,
        } as SendMessageParams);
        setRefusal(null);
      } catch (error) {
        if (isEmulatorControlError(error)) setRefusal(error);
        throw error;
      }
      return `Message ${sent.id} ${sent.status === 'failed' ? `failed: ${sent.error?.code}` : 'queued'}.`;
    });
  };
  const refusedTo = refusal?.details.field === 'to';
  return (
    <form id="send-form" onSubmit={send}>
      <div class="form-grid">
        <div class="field">
          <label for="send-connection">Connection</label>
          <select
            id="send-connection"
            value={connection?.id ?? ''}
            onChange={(event) => {
              setConnectionId(event.currentTarget.value);
              setTemplateIndex(0);
            }}
          >
            {all.map((option) => (
              <option key={option.id} value={option.id} disabled={option.status !== 'active'}>
                {option.name} ({option.phone_number}){option.status === 'active' ? '' : `, ${option.status}`}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="send-to">To</label>
          <input
            id="send-to"
            name="to"
            type="tel"
            required
            defaultValue="+33612345678"
            aria-invalid={refusedTo}
            aria-describedby={refusedTo ? 'send-to-error' : undefined}
          />
          {refusedTo && (
            <p id="send-to-error" class="field-error">
              {errorText(refusal)}
            </p>
          )}
        </div>
      </div>
      <fieldset>
        <legend>Content</legend>
        <label>
          <input
            type="radio"
            name="kind"
            checked={kind === 'template'}
            onChange={() => setKind('template')}
          />{' '}
          Template message
        </label>
        <label>
          <input type="radio" name="kind" checked={kind === 'text'} onChange={() => setKind('text')} /> Text
          message
        </label>
      </fieldset>
      {kind === 'template' && template ? (
        <>
          <div class="field">
            <label for="send-template">Template</label>
            <select
              id="send-template"
              value={String(templateIndex)}
              onChange={(event) => {
                setTemplateIndex(Number(event.currentTarget.value));
                setVariables([]);
              }}
            >
              {connection?.templates.map((option, index) => (
                <option key={`${option.name}:${option.language}`} value={String(index)}>
                  {option.name} ({option.language}, {option.variable_count} variables)
                </option>
              ))}
            </select>
          </div>
          {template.variable_count > 0 && (
            <div class="form-grid">
              {Array.from({ length: template.variable_count }, (_, index) => (
                <div class="field" key={`${template.name}-${index + 1}`}>
                  <label for={`send-variable-${index + 1}`}>Variable {`{{${index + 1}}}`}</label>
                  <input
                    id={`send-variable-${index + 1}`}
                    type="text"
                    required
                    value={variables[index] ?? ''}
                    onInput={(event) => {
                      const next = [...variables];
                      next[index] = event.currentTarget.value;
                      setVariables(next);
                    }}
                  />
                </div>
              ))}
            </div>
          )}
          <p class="preview" aria-live="polite">
            <span class="sr-only">Preview: </span>
            {fillTemplate(template.body, variables)}
          </p>
        </>
      ) : (
        <div class="field">
          <label for="send-text">Text</label>
          <textarea id="send-text" name="text" rows={2} required maxLength={4096} />
        </div>
      )}
      <button type="submit" class="primary">
        Send message
      </button>
    </form>
  );
}

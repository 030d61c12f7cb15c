import { useConsole } from './console-context';

/** A secret to show once: an API key or a signing secret. */
export interface Secret {
  title: string;
  value: string;
  note?: string;
}

/**
 * Shows a secret the one time the API returns it, with Copy and Done. The value lives only in
 * this element's state: gone on Done, on leaving the view and on reload; never in the URL.
 */
export function RevealSecret({
  id,
  secret,
  onDone,
}: {
  id: string;
  secret: Secret | null;
  onDone: () => void;
}) {
  const { announce } = useConsole();
  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      announce('Copied to the clipboard.');
    } catch {
      announce('Copy failed: select the text and copy it by hand.', true);
    }
  };
  return (
    <div id={id}>
      {secret && (
        <fieldset class="reveal">
          <legend>{secret.title}: copy it now, it is shown only once.</legend>
          <code data-secret="">{secret.value}</code>
          <div class="row">
            <button
              type="button"
              aria-label={`Copy ${secret.title.toLowerCase()}`}
              onClick={() => copy(secret.value)}
            >
              Copy
            </button>
            <button type="button" onClick={onDone}>
              Done
            </button>
          </div>
          {secret.note && <div class="muted">{secret.note}</div>}
        </fieldset>
      )}
    </div>
  );
}

import type { Environment } from '@parley/sdk';
import { useConsole } from './console-context';
import { control } from './control';

/** The application every view shows, and the form that creates one. */
export function ApplicationBar() {
  const { apps, app, act, navigate } = useConsole();
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      const created = await control.createApplication({
        name: String(fields.get('name')),
        environment: String(fields.get('environment')) as Environment,
      });
      navigate({ app: created.id, endpoint: null, message: null, connection: null, customer: null });
      form.reset();
      form.closest('details')?.removeAttribute('open');
      return `Application ${created.name} (${created.environment}) created.`;
    });
  };
  return (
    <section class="application-bar" aria-label="Application">
      <div class="field inline">
        <label for="app-select">Current application</label>
        <select
          id="app-select"
          value={app?.id ?? ''}
          onChange={(event) =>
            navigate({
              app: event.currentTarget.value || null,
              endpoint: null,
              message: null,
              connection: null,
              customer: null,
            })
          }
        >
          {apps.length === 0 && <option value="">No application yet</option>}
          {apps.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name} ({option.environment})
            </option>
          ))}
        </select>
      </div>
      <details>
        <summary>New application</summary>
        <form id="app-form" class="row" onSubmit={create}>
          <div class="field">
            <label for="app-name">Name</label>
            <input type="text" id="app-name" name="name" required maxLength={200} />
          </div>
          <div class="field">
            <label for="app-environment">Environment</label>
            <select id="app-environment" name="environment">
              <option value="sandbox">sandbox</option>
              <option value="live">live</option>
            </select>
          </div>
          <button type="submit" class="primary">
            Create application
          </button>
        </form>
      </details>
    </section>
  );
}

/**
 * Browser-side sections of the console: clock, applications, keys, endpoints, deliveries,
 * messages, events and usage, each loaded from the control API and rendered from its answer.
 */
export const CONSOLE_SCRIPT_SECTIONS = `
function currentApp(apps) {
  return apps.find((app) => app.id === selection.appId) || null;
}

async function loadEverything() {
  const generation = selection.generation;
  const [clock, apps] = await Promise.all([api('GET', '/_emulator/clock'), api('GET', '/_emulator/applications?limit=100')]);
  if (generation !== selection.generation) return;
  $('clock-now').textContent = when(clock.now);
  $('clock-mode').textContent = clock.mode;
  if (!currentApp(apps.data)) selection.appId = apps.data.length ? apps.data[0].id : null;
  renderApps(apps.data);
  const app = currentApp(apps.data);
  document.body.dataset.environment = app ? app.environment : '';
  $('key-agreement-field').hidden = !app || app.environment !== 'live';
  for (const id of ['keys', 'endpoints', 'deliveries', 'messages', 'events']) $(id).hidden = !app;
  if (!app) return saveSelection();
  const scoped = query({ application_id: app.id, limit: '100' });
  const [endpoints, messages, events, usage] = await Promise.all([
    api('GET', '/_emulator/endpoints?' + scoped),
    api('GET', '/_emulator/messages?' + query({ application_id: app.id, limit: '20' })),
    api('GET', '/_emulator/events?' + query({ application_id: app.id, limit: '10' })),
    api('GET', '/_emulator/usage?' + query({ application_id: app.id })).catch(() => null),
  ]);
  if (generation !== selection.generation) return;
  if (!endpoints.data.some((endpoint) => endpoint.id === selection.endpointId)) {
    selection.endpointId = endpoints.data.length ? endpoints.data[0].id : null;
  }
  saveSelection();
  renderEndpoints(endpoints.data);
  renderMessages(messages.data);
  renderEvents(events.data);
  renderUsage(usage);
  const endpoint = endpoints.data.find((item) => item.id === selection.endpointId);
  $('deliveries-title').textContent = endpoint ? 'Deliveries to ' + endpoint.url : 'Deliveries';
  const deliveries = endpoint
    ? await api('GET', '/_emulator/deliveries?' + query({ endpoint_id: endpoint.id, limit: '50' }))
    : { data: [] };
  if (generation !== selection.generation) return;
  renderDeliveries(deliveries.data, Boolean(endpoint));
}

function renderApps(apps) {
  renderInto('app-select', { apps, selected: selection.appId }, () => {
    const options = apps.map((app) =>
      h('option', { value: app.id, selected: app.id === selection.appId, text: app.name + ' (' + app.environment + ')' }),
    );
    const fragment = document.createDocumentFragment();
    fragment.append(...(options.length ? options : [h('option', { value: '', text: 'No application yet' })]));
    return fragment;
  });
  $('app-select').value = selection.appId || '';
}

function renderEndpoints(endpoints) {
  renderInto('endpoint-list', { endpoints, selected: selection.endpointId }, () =>
    table(['URL', 'Events', 'Active', 'Actions'], endpoints.map((endpoint) =>
      h('tr', { 'aria-current': endpoint.id === selection.endpointId ? 'true' : null, 'data-endpoint-id': endpoint.id },
        h('td', {}, h('code', { text: endpoint.url })),
        h('td', { text: endpoint.events.join(', ') }),
        h('td', {}, h('label', {},
          h('input', { type: 'checkbox', checked: endpoint.active, onchange: (event) => act(async () => {
            await api('PATCH', '/_emulator/endpoints/' + endpoint.id, { active: event.target.checked });
            return 'Endpoint ' + (event.target.checked ? 'activated.' : 'deactivated.');
          }) }), h('span', { class: 'sr-only', text: 'Active: ' + endpoint.url }))),
        h('td', { class: 'actions' },
          h('button', { type: 'button', text: 'Deliveries', 'aria-label': 'Deliveries to ' + endpoint.url, onclick: () => act(async () => {
            choose(selection.appId, endpoint.id);
          }) }),
          h('button', { type: 'button', text: 'Send test', 'aria-label': 'Send test event to ' + endpoint.url, onclick: () => act(async () => {
            const result = await api('POST', '/_emulator/endpoints/' + endpoint.id + '/test');
            choose(selection.appId, endpoint.id);
            return 'Test event ' + result.event_id + ' queued.';
          }) }),
          h('button', { type: 'button', text: 'Rotate secret', 'aria-label': 'Rotate secret of ' + endpoint.url, onclick: () => act(async () => {
            const rotation = await api('POST', '/_emulator/endpoints/' + endpoint.id + '/rotate-secret');
            reveal('endpoint-secret', 'New signing secret', rotation.secret,
              'The previous secret keeps signing until ' + when(rotation.previous_expires_at) + '.');
            return 'Secret rotated.';
          }) }),
          h('button', { type: 'button', class: 'danger', text: 'Delete', 'aria-label': 'Delete endpoint ' + endpoint.url, onclick: () => act(async () => {
            if (!confirm('Delete the endpoint ' + endpoint.url + ' and its deliveries?')) return '';
            await api('DELETE', '/_emulator/endpoints/' + endpoint.id);
            return 'Endpoint deleted.';
          }) })),
      )), 'No endpoint yet: add one above.'));
}

function attemptText(attempt) {
  return attempt.status_code !== null ? 'HTTP ' + attempt.status_code : attempt.error || 'no answer';
}

function renderDeliveries(deliveries, hasEndpoint) {
  renderInto('delivery-list', { deliveries, hasEndpoint }, () =>
    table(['Status', 'Event', 'Attempts', 'Next attempt', ''], deliveries.map((delivery) =>
      h('tr', { 'data-delivery-id': delivery.id },
        h('td', {}, badge(delivery.status)),
        h('td', {}, delivery.event_type, h('br'), h('code', { class: 'muted', text: delivery.event_id })),
        h('td', {}, delivery.attempts.length === 0 ? h('span', { class: 'muted', text: 'none yet' }) :
          h('details', {}, h('summary', { text: delivery.attempts.length + ' · last: ' + attemptText(delivery.attempts[delivery.attempts.length - 1]) }),
            h('ol', {}, delivery.attempts.map((attempt) => h('li', { text: when(attempt.at) + ' · ' + attemptText(attempt) +
              (attempt.error && attempt.status_code !== null ? ' · ' + attempt.error : '') + ' · ' + attempt.duration_ms + ' ms' }))))),
        h('td', { text: when(delivery.next_attempt_at) || '—' }),
        h('td', { class: 'actions' }, delivery.status === 'failed'
          ? h('button', { type: 'button', text: 'Replay', 'aria-label': 'Replay ' + delivery.event_type + ' ' + delivery.event_id, onclick: () => act(async () => {
              await api('POST', '/_emulator/deliveries/' + delivery.id + '/replay');
              return 'Replay queued (same event id).';
            }) })
          : null),
      )), hasEndpoint ? 'No delivery to this endpoint yet.' : 'Select an endpoint to see its deliveries.'));
}

function renderMessages(messages) {
  renderInto('message-list', messages, () =>
    table(['Created', 'Direction', 'Type', 'Status'], messages.map((message) =>
      h('tr', { 'data-message-id': message.id },
        h('td', { text: when(message.created_at) }),
        h('td', { text: message.direction === 'inbound' ? 'from ' + message.from : 'to ' + message.to }),
        h('td', { text: message.type === 'template' && message.template ? 'template ' + message.template.name : message.type }),
        h('td', {}, badge(message.status), message.error ? h('span', { class: 'muted', text: ' ' + message.error.code }) : null),
      )), 'No message yet.'));
}

function renderEvents(events) {
  renderInto('event-list', events, () =>
    table(['Created', 'Type', 'Id'], events.map((event) =>
      h('tr', {}, h('td', { text: when(event.created_at) }), h('td', { text: event.type }), h('td', {}, h('code', { text: event.id })))),
    'No event yet.'));
}

function renderUsage(usage) {
  renderInto('usage-list', { usage, environment: document.body.dataset.environment }, () => {
    if (!usage || !usage.keys) return h('p', { class: 'empty', text: 'Usage is not available.' });
    const fragment = document.createDocumentFragment();
    const bucket = (figures) => (figures ? figures.used + ' / ' + figures.limit : '—');
    fragment.append(table(['Key', 'Requests', 'Sends', 'Templates', ''], usage.keys.map((key) =>
      h('tr', {}, h('td', {}, h('code', { text: key.prefix + '…' })), h('td', { text: bucket(key.buckets.requests) }),
        h('td', { text: bucket(key.buckets.sends) }), h('td', { text: bucket(key.buckets.templates) }),
        h('td', { class: 'actions' }, h('button', { type: 'button', class: 'danger', text: 'Revoke', 'aria-label': 'Revoke key ' + key.prefix + '…', onclick: () => act(async () => {
          if (!confirm('Revoke the key ' + key.prefix + '…? Requests with it will get 401 invalid_api_key.')) return '';
          await api('DELETE', '/_emulator/keys/' + key.key_id);
          return 'Key revoked.';
        }) })))),
    'No key yet.'));
    if (document.body.dataset.environment === 'live') {
      for (const workspace of usage.workspaces || []) {
        fragment.append(h('p', { class: 'muted', text: 'Workspace sends today (' + workspace.day + ' UTC): ' + workspace.sends_today + ' of ' + workspace.daily_limit + '.' }));
      }
    } else {
      fragment.append(h('p', { class: 'muted', text: 'Sandbox keys have the per-minute limits and no daily cap.' }));
    }
    if (usage.rate_limits_enabled === false) fragment.append(h('p', { class: 'muted', text: 'Rate limits are off.' }));
    return fragment;
  });
}
`;

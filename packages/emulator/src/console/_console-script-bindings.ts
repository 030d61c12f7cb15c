/** Browser-side wiring of the console's static controls: forms, clock buttons, reset, polling. */
export const CONSOLE_SCRIPT_BINDINGS = `
function checkboxes(containerId, name, values, checked) {
  $(containerId).append(...values.map((value) =>
    h('label', {}, h('input', { type: 'checkbox', name, value, checked }), h('code', { text: value }))));
}

function checkedValues(form, name) {
  return [...form.querySelectorAll('input[name="' + name + '"]:checked')].map((input) => input.value);
}

checkboxes('key-scopes', 'scope', config.scopes, true);
checkboxes('endpoint-events', 'event', config.eventTypes, true);

for (const button of document.querySelectorAll('[data-advance-ms]')) {
  button.addEventListener('click', () => act(async () => {
    const result = await api('POST', '/_emulator/clock/advance', { ms: Number(button.dataset.advanceMs) });
    return 'Clock advanced to ' + when(result.now) + '.';
  }));
}

$('reset').addEventListener('click', () => act(async () => {
  if (!confirm('Reset the emulator to its seed? Everything created since start is lost.')) return '';
  await api('POST', '/_emulator/reset');
  choose(null, null);
  for (const id of ['key-secret', 'endpoint-secret']) $(id).replaceChildren();
  return 'Emulator reset.';
}));

$('app-select').addEventListener('change', (event) => act(async () => {
  choose(event.target.value || null, null);
  for (const id of ['key-secret', 'endpoint-secret']) $(id).replaceChildren();
}));

$('app-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  act(async () => {
    const app = await api('POST', '/_emulator/applications', { name: form.elements.name.value, environment: form.elements.environment.value });
    choose(app.id, null);
    form.reset();
    return 'Application ' + app.name + ' (' + app.environment + ') created.';
  });
});

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  act(async () => {
    const body = { scopes: checkedValues(form, 'scope') };
    if (document.body.dataset.environment === 'live') body.accept_agreement = form.elements.accept_agreement.checked;
    const created = await api('POST', '/_emulator/applications/' + selection.appId + '/keys', body);
    reveal('key-secret', 'API key', created.key, 'Scopes: ' + created.scopes.join(', '));
    return 'API key created.';
  });
});

$('endpoint-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  act(async () => {
    const created = await api('POST', '/_emulator/applications/' + selection.appId + '/endpoints', {
      url: form.elements.url.value.trim(),
      events: checkedValues(form, 'event'),
    });
    choose(selection.appId, created.id);
    reveal('endpoint-secret', 'Signing secret', created.secret, 'Endpoint ' + created.url);
    form.elements.url.value = '';
    return 'Endpoint created.';
  });
});

$('refresh').addEventListener('click', () => act(async () => 'Refreshed.'));

loadSelection();
refresh();
setInterval(() => {
  if (!document.hidden) refresh();
}, 2000);
`;

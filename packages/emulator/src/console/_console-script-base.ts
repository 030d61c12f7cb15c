/**
 * Browser-side helpers of the console (plain ES2022, no framework): DOM building, the control
 * API client, announcements for screen readers, and a refresh loop that re-renders a part
 * only when its data changed (so focus and open details survive polling).
 */
export const CONSOLE_SCRIPT_BASE = String.raw`
const config = JSON.parse(document.getElementById('console-config').textContent);
const $ = (id) => document.getElementById(id);
// generation counts the user's choices: a refresh that started before one is stale and stops.
const selection = { appId: null, endpointId: null, generation: 0 };

function choose(appId, endpointId) {
  selection.appId = appId;
  selection.endpointId = endpointId;
  selection.generation++;
}
const renderedKeys = {};

function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'text') element.textContent = value;
    else if (name === 'class') element.className = value;
    else if (name === 'checked' || name === 'value') element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

function announce(text, isError) {
  $('status-message').textContent = isError ? '' : text;
  $('error-message').textContent = isError ? text : '';
}

async function api(method, path, body) {
  const init = { method, headers: { accept: 'application/json' } };
  if (method === 'POST' || method === 'PATCH') {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const response = await fetch(path, init);
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error;
    throw new Error(error ? error.message + ' (' + error.code + ')' : 'HTTP ' + response.status + ' from ' + path);
  }
  return data;
}

// The result is announced once the view shows it, so what is read out matches what is on screen.
async function act(action) {
  let message = '';
  let failed = false;
  try {
    message = await action();
  } catch (error) {
    message = error.message;
    failed = true;
  }
  await refresh();
  if (message) announce(message, failed);
}

function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  return search.toString();
}

function renderInto(id, data, build) {
  const key = JSON.stringify(data);
  if (renderedKeys[id] === key) return;
  renderedKeys[id] = key;
  $(id).replaceChildren(build(data));
}

function when(iso) {
  return iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '';
}

const BADGE = { delivered: 'ok', read: 'ok', sent: 'ok', pending: 'warn', queued: 'warn', failed: 'bad', received: 'muted' };
function badge(status) {
  return h('span', { class: 'badge ' + (BADGE[status] || 'muted'), text: status });
}

function table(headings, rows, emptyText) {
  if (rows.length === 0) return h('p', { class: 'empty', text: emptyText });
  return h('table', {}, h('thead', {}, h('tr', {}, headings.map((text) => h('th', { scope: 'col', text })))), h('tbody', {}, rows));
}

function reveal(containerId, title, value, note) {
  const copy = h('button', {
    type: 'button',
    text: 'Copy',
    'aria-label': 'Copy ' + title.toLowerCase(),
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(value);
        announce('Copied to the clipboard.', false);
      } catch {
        announce('Copy failed: select the text and copy it by hand.', true);
      }
    },
  });
  const dismiss = h('button', { type: 'button', text: 'Done', onclick: () => $(containerId).replaceChildren() });
  $(containerId).replaceChildren(
    h('div', { class: 'reveal', role: 'group', 'aria-label': title },
      h('p', { text: title + ': copy it now, it is shown only once.' }),
      h('code', { 'data-secret': '', text: value }), copy, dismiss,
      note ? h('div', { class: 'muted', text: note }) : null),
  );
}

function saveSelection() {
  const params = query({ app: selection.appId, endpoint: selection.endpointId });
  history.replaceState(null, '', params ? '#' + params : location.pathname);
}

function loadSelection() {
  const params = new URLSearchParams(location.hash.slice(1));
  selection.appId = params.get('app');
  selection.endpointId = params.get('endpoint');
}

let running = null;
let again = null;
function refresh() {
  if (running) {
    again = again || running.then(() => {
      again = null;
      return refresh();
    });
    return again;
  }
  running = loadEverything()
    .catch((error) => announce('Could not refresh: ' + error.message, true))
    .finally(() => {
      running = null;
    });
  return running;
}
`;

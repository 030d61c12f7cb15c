import { useCallback, useEffect, useState } from 'preact/hooks';

/** The console's views, in the order of its navigation. */
export const VIEWS = [
  { name: 'timeline', title: 'Timeline' },
  { name: 'messages', title: 'Messages' },
  { name: 'conversations', title: 'Conversations' },
  { name: 'deliveries', title: 'Webhook deliveries' },
  { name: 'endpoints', title: 'Endpoints' },
  { name: 'keys', title: 'Applications and keys' },
  { name: 'connections', title: 'Connections' },
  { name: 'testing', title: 'Testing tools' },
] as const;

export type ViewName = (typeof VIEWS)[number]['name'];

/**
 * Where the console is: a view, the application it shows, an optional endpoint filter, the message
 * opened, the conversation opened (its connection and customer number). Ids and a phone number
 * only, never a secret.
 */
export interface Route {
  view: ViewName;
  app: string | null;
  endpoint: string | null;
  message: string | null;
  /** The connection of the conversation opened; a link to a view leaves it out. */
  connection?: string | null;
  /** The customer number of the conversation opened. */
  customer?: string | null;
}

function isView(name: string | null): name is ViewName {
  return VIEWS.some((view) => view.name === name);
}

/** The route in the location's hash (`#view=endpoints&app=…`). */
export function readRoute(): Route {
  const parameters = new URLSearchParams(location.hash.slice(1));
  const view = parameters.get('view');
  return {
    view: isView(view) ? view : 'timeline',
    app: parameters.get('app'),
    endpoint: parameters.get('endpoint'),
    message: parameters.get('message'),
    connection: parameters.get('connection'),
    customer: parameters.get('customer'),
  };
}

/** The hash of a route. */
export function routeHref(route: Route): string {
  const parameters = new URLSearchParams({ view: route.view });
  if (route.app) parameters.set('app', route.app);
  if (route.endpoint) parameters.set('endpoint', route.endpoint);
  if (route.message) parameters.set('message', route.message);
  if (route.connection) parameters.set('connection', route.connection);
  if (route.customer) parameters.set('customer', route.customer);
  return `#${parameters}`;
}

/**
 * The current route, following the hash (links, back and forward), and a way to change it:
 * a new view adds a history entry, a changed selection replaces the current one.
 */
export function useRoute(): [Route, (change: Partial<Route>) => void] {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const follow = () => setRoute(readRoute());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const change = useCallback((update: Partial<Route>) => {
    const next = { ...readRoute(), ...update };
    const href = routeHref(next);
    if (update.view && update.view !== readRoute().view) history.pushState(null, '', href);
    else history.replaceState(null, '', href);
    setRoute(next);
  }, []);
  return [route, change];
}

import { ConnectionsView } from './connections-view';
import type { Application } from './control-types';
import { ConversationsView } from './conversations-view';
import { DeliveriesView } from './deliveries-view';
import { EndpointsView } from './endpoints-view';
import { KeysView } from './keys-view';
import { MessagesView } from './messages-view';
import type { ViewName } from './route';
import { TestingToolsView } from './testing-tools-view';
import { TimelineView } from './timeline-view';

/**
 * The view the route names, for one application. Keyed by the application: choosing another
 * starts every view afresh, so a secret shown for one is never shown under another.
 */
export function CurrentView({ view, app }: { view: ViewName; app: Application }) {
  switch (view) {
    case 'timeline':
      return <TimelineView key={app.id} app={app} />;
    case 'messages':
      return <MessagesView key={app.id} app={app} />;
    case 'conversations':
      return <ConversationsView key={app.id} app={app} />;
    case 'deliveries':
      return <DeliveriesView key={app.id} app={app} />;
    case 'endpoints':
      return <EndpointsView key={app.id} app={app} />;
    case 'keys':
      return <KeysView key={app.id} app={app} />;
    case 'connections':
      return <ConnectionsView key={app.id} app={app} />;
    case 'testing':
      return <TestingToolsView key={app.id} app={app} />;
  }
}

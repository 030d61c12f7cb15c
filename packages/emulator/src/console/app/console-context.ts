import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ConsoleConfig } from './console-config';
import type { ActivityKind, Application } from './control-types';
import type { Route } from './route';

/** Runs a change; what it returns is announced once the views show its result. */
export type Action = () => Promise<string | undefined>;

/** The activity kinds after which a view's data may have changed, or every change (the timeline). */
export type ReloadOn = readonly ActivityKind[] | 'every change';

/** What every view gets from the console. */
export interface ConsoleState {
  config: ConsoleConfig;
  apps: Application[];
  /** The application the views show, or null when there is none. */
  app: Application | null;
  route: Route;
  navigate(change: Partial<Route>): void;
  /** Runs an action, reloads what is shown, then announces its message (or its error as an alert). */
  act(action: Action): Promise<void>;
  announce(text: string, isError?: boolean): void;
  /**
   * Registers a view's loader: every full refresh reloads it, and so does a stream item of a kind
   * in `reloadOn`. Returns the unregistration.
   */
  register(reload: () => Promise<void>, reloadOn: ReloadOn): () => void;
}

export const ConsoleContext = createContext<ConsoleState | null>(null);

/** The console state, inside {@link ConsoleContext}. */
export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole outside the console');
  return state;
}

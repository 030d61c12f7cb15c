import type { ComponentChildren } from 'preact';

/** What a list says when it has nothing, or why it could not load. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** A load error under a view's heading. */
export function LoadError({ error }: { error: string | undefined }) {
  return error ? <p class="load-error">Could not load: {error}</p> : null;
}

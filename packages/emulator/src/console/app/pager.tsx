import { useState } from 'preact/hooks';

/** Cursor pagination of a list envelope: the cursor of the page shown and the way back. */
export interface Pages {
  cursor: string | null;
  page: number;
  next(cursor: string | null): void;
  previous(): void;
  first(): void;
}

/** Pages of one list; `first()` when its filters change. */
export function usePages(): Pages {
  const [stack, setStack] = useState<(string | null)[]>([null]);
  return {
    cursor: stack[stack.length - 1] ?? null,
    page: stack.length,
    next: (cursor) => cursor && setStack((previous) => [...previous, cursor]),
    previous: () => setStack((previous) => (previous.length > 1 ? previous.slice(0, -1) : previous)),
    first: () => setStack([null]),
  };
}

/** Previous and Next under a list. */
export function Pager({
  pages,
  label,
  nextCursor,
}: {
  pages: Pages;
  label: string;
  nextCursor: string | null;
}) {
  if (pages.page === 1 && nextCursor === null) return null;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={pages.page === 1} onClick={pages.previous}>
        Previous
      </button>
      <span class="muted">Page {pages.page}</span>
      <button type="button" disabled={nextCursor === null} onClick={() => pages.next(nextCursor)}>
        Next
      </button>
    </nav>
  );
}

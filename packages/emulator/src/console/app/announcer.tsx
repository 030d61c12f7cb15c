/** What was last announced: a result (polite) or an error (an alert). */
export interface Announcement {
  status: string;
  error: string;
}

/** The two live regions every result and error is read out from. */
export function Announcer({ announcement }: { announcement: Announcement }) {
  return (
    <div id="announcer">
      <p id="status-message" role="status" aria-live="polite">
        {announcement.status}
      </p>
      <p id="error-message" role="alert" class="error">
        {announcement.error}
      </p>
    </div>
  );
}

/** Who a request is for, as far as the canary is concerned; each id optional but the event's. */
export interface RequesterIds {
  readonly userId?: string | undefined;
  readonly sessionId?: string | undefined;
  /** Unique per event: the last resort, so a request with neither user nor session is still placed. */
  readonly eventId: string;
}

/**
 * The requester of a request, as one string: the user (`u:`), else the session (`s:`), else the
 * event (`e:`). The prefix keeps a user id and a session id that happen to be equal apart; an empty
 * id counts as absent (it names nobody, and would otherwise put every blank requester in one bucket).
 */
export function requesterKeyOf(ids: RequesterIds): string {
  if (ids.userId) return `u:${ids.userId}`;
  if (ids.sessionId) return `s:${ids.sessionId}`;
  return `e:${ids.eventId}`;
}

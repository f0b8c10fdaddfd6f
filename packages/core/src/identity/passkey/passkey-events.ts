/** Event published (and audited) when a validly signed assertion's counter did not increase. */
export const PASSKEY_COUNTER_REGRESSION_EVENT = "passkey.counter-regression";
/** Event published after a passkey was registered. */
export const PASSKEY_REGISTERED_EVENT = "passkey.registered";
/** Event published after a passkey was deleted. */
export const PASSKEY_DELETED_EVENT = "passkey.deleted";

/** The passkey events by name, for a host that listens (`bus.on(PASSKEY_EVENTS.registered, …)`). */
export const PASSKEY_EVENTS = {
  registered: PASSKEY_REGISTERED_EVENT,
  deleted: PASSKEY_DELETED_EVENT,
  counterRegression: PASSKEY_COUNTER_REGRESSION_EVENT,
} as const;

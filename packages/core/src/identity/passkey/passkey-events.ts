/** Event published (and audited) when a validly signed assertion's counter did not increase. */
export const PASSKEY_COUNTER_REGRESSION_EVENT = "passkey.counter-regression";
/** Event published after a passkey was registered. */
export const PASSKEY_REGISTERED_EVENT = "passkey.registered";
/** Event published after a passkey was deleted. */
export const PASSKEY_DELETED_EVENT = "passkey.deleted";

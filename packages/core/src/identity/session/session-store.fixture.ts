import type { SessionStore } from "./session-store.js";

/**
 * A test's SessionStore over `store` with only the port's required methods, each handing the call on
 * (none of the optional `touch`, `getAndTouch`, `update`): spread it first, then override what the
 * test watches or breaks.
 */
export function requiredSessionMethods(store: SessionStore): SessionStore {
  return {
    get: (id) => store.get(id),
    save: (session) => store.save(session),
    delete: (id) => store.delete(id),
    listByUser: (userId, limit) => store.listByUser(userId, limit),
    deleteByUser: (userId) => store.deleteByUser(userId),
    deleteByHandle: (userId, handle) => store.deleteByHandle(userId, handle),
    deleteByUserExcept: (userId, keep) => store.deleteByUserExcept(userId, keep),
  };
}

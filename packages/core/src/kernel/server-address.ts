/**
 * Where the HTTP server listens, as the host learns it: set after `listen` (port 0 picks one), read
 * lazily by features that need the local origin (the passkey allowed-origins fallback
 * `http://localhost:<port>`).
 */
export class ServerAddress {
  /** The listening port, once known. */
  port: number | undefined;

  constructor(port?: number) {
    this.port = port;
  }

  /** `http://localhost:<port>` (WebAuthn refuses an IP address as origin), or undefined before listen. */
  localOrigin(): string | undefined {
    return this.port === undefined ? undefined : `http://localhost:${this.port}`;
  }
}

/**
 * A key-encryption key for demos on MongoDB: a durable KeyStore refuses to start without one, so the
 * tests set it whether or not the KeyStore is on MongoDB yet.
 */
export const TEST_KEK = { "platform.keys.encryption-key": "test-key-encryption-key-of-32-bytes!" } as const;

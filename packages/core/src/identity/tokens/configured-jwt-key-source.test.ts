import { describe, expect, it } from "vitest";
import { ConfiguredJwtKeySource } from "./configured-jwt-key-source.js";
import { loadJwtKeys } from "./jwt-keys.js";
import { RecordingLogger, rejectionCode } from "./token-service.test-support.js";

describe("ConfiguredJwtKeySource", () => {
  it("loads the configured key: the same kid as loadJwtKeys on the same options, no warning", async () => {
    const logger = new RecordingLogger();
    const options = { algorithm: "HS256" as const, secret: "correct horse battery staple 32b!", logger };
    const keys = await new ConfiguredJwtKeySource(options).load();
    expect(keys).toMatchObject({ algorithm: "HS256", generated: false });
    expect(keys.kid).toBe((await loadJwtKeys(options)).kid);
    expect(logger.lines).toEqual([]);
  });

  it("rejects a bad configuration with CONFIGURATION_INVALID, as start-up did before the port", async () => {
    const source = new ConfiguredJwtKeySource({
      algorithm: "HS256",
      secret: "short",
      logger: new RecordingLogger(),
    });
    expect(await rejectionCode(source.load())).toBe("CONFIGURATION_INVALID");
  });
});

import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { SoftwareAuthenticator } from "./software-authenticator.test-support.js";
import {
  isBase64Url,
  MAX_WEBAUTHN_FIELD_LENGTH,
  parseAuthenticationResponseJson,
  parseRegistrationResponseJson,
} from "./webauthn-response-json.js";

const device = new SoftwareAuthenticator("http://localhost:8080");
const registration = device.createCredential({
  challenge: "Y2hhbGxlbmdl",
  rp: { name: "x", id: "localhost" },
  user: { id: "dXNlcg", name: "u", displayName: "u" },
  pubKeyCredParams: [{ alg: -7, type: "public-key" }],
});
const assertion = device.getAssertion({ challenge: "Y2hhbGxlbmdl", rpId: "localhost" });

function fieldOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return isPlatformError(error) && error.code === "VALIDATION_FAILED" ? error.details?.field : error;
  }
  return "accepted";
}

describe("isBase64Url", () => {
  it("accepts unpadded base64url of whole bytes only", () => {
    for (const ok of ["", "YQ", "YWI", "YWJj", "-_-_"]) expect(isBase64Url(ok), ok).toBe(true);
    for (const bad of ["a", "YQ==", "a+b", "a/b", "a b", 7, null])
      expect(isBase64Url(bad), String(bad)).toBe(false);
  });
});

describe("parseRegistrationResponseJson", () => {
  it("keeps only the fields the verifier reads", () => {
    const parsed = parseRegistrationResponseJson({
      ...registration,
      extra: 1,
      clientExtensionResults: { x: 1 },
    });
    expect(parsed).toEqual({
      id: registration.id,
      rawId: registration.id,
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: registration.response.clientDataJSON,
        attestationObject: registration.response.attestationObject,
        transports: ["internal", "hybrid"],
      },
    });
  });

  it("names the offending field", () => {
    const r = registration;
    expect(fieldOf(() => parseRegistrationResponseJson(null))).toBe("body");
    expect(fieldOf(() => parseRegistrationResponseJson({ ...r, id: "" }))).toBe("id");
    expect(
      fieldOf(() => parseRegistrationResponseJson({ ...r, id: "x".repeat(1_365), rawId: "x".repeat(1_365) })),
    ).toBe("id");
    expect(fieldOf(() => parseRegistrationResponseJson({ ...r, rawId: "YQ" }))).toBe("rawId");
    expect(fieldOf(() => parseRegistrationResponseJson({ ...r, type: "x" }))).toBe("type");
    expect(fieldOf(() => parseRegistrationResponseJson({ ...r, response: [] }))).toBe("response");
    const resp = (patch: object) => ({ ...r, response: { ...r.response, ...patch } });
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ attestationObject: "" })))).toBe(
      "response.attestationObject",
    );
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ transports: "usb" })))).toBe(
      "response.transports",
    );
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ transports: ["USB!"] })))).toBe(
      "response.transports",
    );
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ publicKeyAlgorithm: 1.5 })))).toBe(
      "response.publicKeyAlgorithm",
    );
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ publicKey: "%%" })))).toBe(
      "response.publicKey",
    );
    const notJson = Buffer.from("not json").toString("base64url");
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ clientDataJSON: notJson })))).toBe(
      "response.clientDataJSON",
    );
    const noOrigin = Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: "x" })).toString(
      "base64url",
    );
    expect(fieldOf(() => parseRegistrationResponseJson(resp({ clientDataJSON: noOrigin })))).toBe(
      "response.clientDataJSON",
    );
  });

  it("refuses any string over 64 KB, wherever it is, and accepts 64 KB", () => {
    const huge = "a".repeat(MAX_WEBAUTHN_FIELD_LENGTH + 1);
    expect(fieldOf(() => parseRegistrationResponseJson({ ...registration, note: huge }))).toBe("body.note");
    expect(fieldOf(() => parseRegistrationResponseJson({ ...registration, deep: { deeper: [huge] } }))).toBe(
      "body.deep.deeper.0",
    );
    const exact = "a".repeat(MAX_WEBAUTHN_FIELD_LENGTH);
    expect(fieldOf(() => parseRegistrationResponseJson({ ...registration, note: exact }))).toBe("accepted");
  });
});

describe("parseAuthenticationResponseJson", () => {
  it("keeps the fields the verifier reads and drops a null userHandle", () => {
    expect(parseAuthenticationResponseJson(assertion).response.userHandle).toBe(
      assertion.response.userHandle,
    );
    const withoutHandle = { ...assertion, response: { ...assertion.response, userHandle: null } };
    expect(parseAuthenticationResponseJson(withoutHandle).response).not.toHaveProperty("userHandle");
  });

  it("names the offending field", () => {
    const resp = (patch: object) => ({ ...assertion, response: { ...assertion.response, ...patch } });
    expect(fieldOf(() => parseAuthenticationResponseJson(resp({ signature: undefined })))).toBe(
      "response.signature",
    );
    expect(fieldOf(() => parseAuthenticationResponseJson(resp({ authenticatorData: "a" })))).toBe(
      "response.authenticatorData",
    );
    expect(fieldOf(() => parseAuthenticationResponseJson(resp({ userHandle: 5 })))).toBe(
      "response.userHandle",
    );
  });
});

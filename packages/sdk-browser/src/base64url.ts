/** base64url (RFC 4648 §5, no padding) of bytes, as WebAuthn JSON carries them. */
export function toBase64url(bytes: ArrayBuffer | ArrayBufferView): string {
  // isView, not instanceof ArrayBuffer: a buffer of another realm (a frame, a test's VM) is still bytes.
  const view = ArrayBuffer.isView(bytes)
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);
  let binary = "";
  for (let i = 0; i < view.length; i += 0x8000) {
    binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a base64url (or base64) string; throws a TypeError on anything else. */
export function fromBase64url(text: string): ArrayBuffer {
  if (!/^[A-Za-z0-9_+/-]*={0,2}$/.test(text)) throw new TypeError("Not a base64url string");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out.buffer;
}

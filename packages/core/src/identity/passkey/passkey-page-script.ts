/**
 * The built-in passkey page's script (plain browser JavaScript, no imports, no bundler), served at
 * `/webauthn/passkeys.js`. It reads its endpoints from `#platform-page-config`, sends the page's CSRF
 * token (meta `_csrf`, header named by meta `_csrf_header`, else `X-CSRF-TOKEN`) on every POST and
 * DELETE, and implements: register a passkey, list and delete passkeys, sign in with a passkey (modal,
 * with an optional username), and autofill sign-in (conditional mediation) on `#passkeyUsername`,
 * aborted before a modal ceremony starts. State for tests: `data-conditional` on the config element
 * (`unavailable`, `pending`, `aborted`, `error`, `done`), `data-count` on `#passkeyList`, `data-kind`
 * on `#passkeyStatus` (`info`, `success`, `error`).
 */
export const PASSKEY_PAGE_SCRIPT = String.raw`(function () {
  "use strict";
  var config = document.getElementById("platform-page-config");
  var data = (config && config.dataset) || {};
  var urls = {
    assertionOptions: data.assertionOptionsUrl || "/webauthn/authenticate/options",
    login: data.loginUrl || "/login/webauthn",
    registerOptions: data.registerOptionsUrl || "/webauthn/register/options",
    register: data.registerUrl || "/webauthn/register",
    credentials: data.credentialsUrl || "/webauthn/credentials"
  };
  var signedIn = data.authenticated === "true";
  var conditional = null;

  function byId(id) {
    return document.getElementById(id);
  }

  function setState(name, value) {
    if (config) config.setAttribute("data-" + name, value);
  }

  function status(text, kind) {
    var el = byId("passkeyStatus");
    if (!el) return;
    el.textContent = text;
    el.setAttribute("data-kind", kind || "info");
  }

  function meta(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") : null;
  }

  function supported() {
    return !!(window.PublicKeyCredential && navigator.credentials);
  }

  async function call(method, url, body) {
    var headers = { Accept: "application/json" };
    if (method !== "GET") {
      var token = meta("_csrf");
      if (token) headers[meta("_csrf_header") || "X-CSRF-TOKEN"] = token;
    }
    var init = { method: method, headers: headers, credentials: "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    var res = await fetch(url, init);
    var text = await res.text();
    var payload = null;
    if (text) {
      try {
        payload = JSON.parse(text);
      } catch (e) {
        payload = null;
      }
    }
    if (!res.ok) {
      var error = new Error((payload && (payload.error || payload.message)) || "Request failed (" + res.status + ")");
      error.status = res.status;
      error.code = payload && payload.code;
      throw error;
    }
    return payload;
  }

  function toBuffer(value) {
    var b64 = String(value).replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var binary = atob(b64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toBase64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (c) {
      var d = { type: "public-key", id: toBuffer(c.id) };
      if (c.transports) d.transports = c.transports;
      return d;
    });
  }

  function creationOptions(json) {
    var o = Object.assign({}, json);
    o.challenge = toBuffer(json.challenge);
    o.user = Object.assign({}, json.user, { id: toBuffer(json.user.id) });
    o.excludeCredentials = descriptors(json.excludeCredentials);
    return o;
  }

  function requestOptions(json) {
    var o = Object.assign({}, json);
    o.challenge = toBuffer(json.challenge);
    if (json.allowCredentials && json.allowCredentials.length) o.allowCredentials = descriptors(json.allowCredentials);
    else delete o.allowCredentials;
    return o;
  }

  function extensionResults(cred) {
    return typeof cred.getClientExtensionResults === "function" ? cred.getClientExtensionResults() : {};
  }

  function registrationJson(cred) {
    var r = cred.response;
    return {
      id: cred.id,
      rawId: toBase64url(cred.rawId),
      type: cred.type,
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
      clientExtensionResults: extensionResults(cred),
      response: {
        clientDataJSON: toBase64url(r.clientDataJSON),
        attestationObject: toBase64url(r.attestationObject),
        transports: typeof r.getTransports === "function" ? r.getTransports() : []
      }
    };
  }

  function assertionJson(cred) {
    var r = cred.response;
    var out = {
      id: cred.id,
      rawId: toBase64url(cred.rawId),
      type: cred.type,
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
      clientExtensionResults: extensionResults(cred),
      response: {
        clientDataJSON: toBase64url(r.clientDataJSON),
        authenticatorData: toBase64url(r.authenticatorData),
        signature: toBase64url(r.signature)
      }
    };
    if (r.userHandle && r.userHandle.byteLength) out.response.userHandle = toBase64url(r.userHandle);
    return out;
  }

  function message(error) {
    if (error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
    if (error && error.name === "InvalidStateError") return "This authenticator already holds a passkey for your account.";
    return (error && error.message) || "Something went wrong.";
  }

  function localTarget(url) {
    return typeof url === "string" && url.charAt(0) === "/" && url.charAt(1) !== "/" && url.charAt(1) !== "\\" ? url : "/";
  }

  async function finishSignIn(cred) {
    var result = await call("POST", urls.login, assertionJson(cred));
    status("Signed in.", "success");
    window.location.assign(localTarget(result && result.redirectUrl));
  }

  async function stopConditional() {
    var running = conditional;
    conditional = null;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }

  function startConditional() {
    if (signedIn || !supported() || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") {
      setState("conditional", "unavailable");
      return;
    }
    var controller = new AbortController();
    var run = { controller: controller, done: null };
    run.done = (async function () {
      try {
        if (!(await PublicKeyCredential.isConditionalMediationAvailable())) {
          setState("conditional", "unavailable");
          return;
        }
        if (controller.signal.aborted) return;
        var options = await call("POST", urls.assertionOptions, {});
        if (controller.signal.aborted) return;
        setState("conditional", "pending");
        var cred = await navigator.credentials.get({
          mediation: "conditional",
          publicKey: requestOptions(options),
          signal: controller.signal
        });
        if (!cred || controller.signal.aborted) return;
        if (conditional === run) conditional = null;
        setState("conditional", "done");
        status("Signing in...", "info");
        await finishSignIn(cred);
      } catch (error) {
        if (controller.signal.aborted || (error && error.name === "AbortError")) {
          setState("conditional", "aborted");
          return;
        }
        setState("conditional", "error");
        status(message(error), "error");
      }
    })();
    conditional = run;
  }

  async function signIn() {
    var button = byId("passkeySignInButton");
    var input = byId("passkeyUsername");
    var username = input ? input.value.trim() : "";
    if (!supported()) return status("This browser does not support passkeys.", "error");
    if (button) button.disabled = true;
    try {
      await stopConditional();
      status("Waiting for your passkey...", "info");
      var options = await call("POST", urls.assertionOptions, username ? { username: username } : {});
      var cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
      if (!cred) throw new Error("No passkey was chosen.");
      await finishSignIn(cred);
    } catch (error) {
      status(message(error), "error");
      startConditional();
    } finally {
      if (button) button.disabled = false;
    }
  }

  async function register() {
    var button = byId("passkeyRegisterButton");
    var input = byId("passkeyLabel");
    if (!supported()) return status("This browser does not support passkeys.", "error");
    if (button) button.disabled = true;
    try {
      await stopConditional();
      status("Follow your browser's prompt to create a passkey...", "info");
      var options = await call("POST", urls.registerOptions, {});
      var cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
      if (!cred) throw new Error("No passkey was created.");
      var body = { response: registrationJson(cred) };
      var label = input ? input.value.trim() : "";
      if (label) body.label = label;
      var saved = await call("POST", urls.register, body);
      if (input) input.value = "";
      status("Passkey \"" + saved.label + "\" registered.", "success");
      await refresh();
    } catch (error) {
      status(message(error), "error");
    } finally {
      if (button) button.disabled = false;
    }
  }

  async function remove(id, label) {
    try {
      await call("DELETE", urls.register + "/" + encodeURIComponent(id));
      status("Passkey \"" + label + "\" deleted.", "success");
      await refresh();
    } catch (error) {
      status(message(error), "error");
    }
  }

  function describe(c) {
    var parts = ["created " + new Date(c.createdAt).toLocaleString()];
    parts.push(c.lastUsedAt ? "last used " + new Date(c.lastUsedAt).toLocaleString() : "never used");
    parts.push(c.backedUp ? "backed up" : "not backed up");
    if (c.transports && c.transports.length) parts.push(c.transports.join(", "));
    return parts.join(" · ");
  }

  async function refresh() {
    var list = byId("passkeyList");
    if (!list || !signedIn) return;
    var credentials = (await call("GET", urls.credentials)) || [];
    list.textContent = "";
    credentials.forEach(function (c) {
      var item = document.createElement("li");
      item.setAttribute("data-credential-id", c.id);
      var name = document.createElement("strong");
      name.className = "passkey-label";
      name.textContent = c.label;
      var details = document.createElement("span");
      details.className = "passkey-details";
      details.textContent = " " + describe(c) + " ";
      var del = document.createElement("button");
      del.type = "button";
      del.className = "passkey-delete";
      del.textContent = "Delete";
      del.addEventListener("click", function () {
        remove(c.id, c.label);
      });
      item.appendChild(name);
      item.appendChild(details);
      item.appendChild(del);
      list.appendChild(item);
    });
    list.setAttribute("data-count", String(credentials.length));
  }

  function init() {
    var signInButton = byId("passkeySignInButton");
    if (signInButton) signInButton.addEventListener("click", signIn);
    var registerButton = byId("passkeyRegisterButton");
    if (registerButton) registerButton.addEventListener("click", register);
    if (signedIn) {
      refresh().catch(function (error) {
        status(message(error), "error");
      });
    }
    startConditional();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
`;

// The home page's script. A file, not an inline <script>: the platform's Content-Security-Policy
// allows scripts from this origin only. A classic script (defer, after the SDK): no top-level await.
(() => {
  const button = document.getElementById("settingsButton");
  const out = document.getElementById("settingsResult");
  if (!button || !out || !window.PlatformMFA) return;
  // Answers that ask for a recent second factor open the SDK's code dialog; the request is then sent again.
  window.PlatformMFA.installInterceptor();
  button.addEventListener("click", () => {
    fetch("/account/settings", { headers: { accept: "application/json" } })
      .then((r) => r.json().then((body) => ({ status: r.status, body })))
      .then((answer) => {
        out.textContent = JSON.stringify(answer);
      })
      .catch((error) => {
        out.textContent = `failed: ${error?.code ?? error}`;
      });
  });
})();

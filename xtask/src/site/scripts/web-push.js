// "Notify me when it is my move" in a room (Web Push; the server's side: api/_lib/notify/). A room
// page loads this once its player holds a seat (site/src/play/room/notify.rs), after its first
// paint, so no page's first load carries it; its `data-` attributes name the room, the seat's
// token, the words, and the device's default. Where the server sends pushes (GET /api/push says
// so, GET /api/notify gives the key) and
// the browser takes them, it draws a switch in `#push-room`: on, it registers the site's service
// worker (sw.js, scope "/"), subscribes this browser with the server's VAPID key and gives the
// subscription to the seat (POST /api/notify); off, it takes it back (DELETE). The player's choice
// is kept per room; a room they never chose in follows the default, without asking for permission
// (only a click asks). Below it, for players who live in a chat, a field for a Discord or Slack
// incoming webhook's address, given to the seat the same way (any browser can do that).
(() => {
  const data = document.currentScript.dataset;
  const slot = document.getElementById("push-room");
  const choice = "tabula.push." + data.room;
  if (!slot) return;
  const pushes = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  const notify = (method, body) =>
    fetch("/api/notify", {
      method,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ roomId: data.room, token: data.token, ...body }),
    });
  const element = (tag, properties) => Object.assign(document.createElement(tag), properties);

  const decodeKey = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

  // Gives the seat this browser's subscription (on) or takes it back; resolves to whether it is on.
  const turn = async (publicKey, on, ask) => {
    if (on && Notification.permission !== "granted") {
      if (!ask || (await Notification.requestPermission()) !== "granted") throw new Error("denied");
    }
    // Turning it off never installs the worker (its install downloads the Triplex pages for offline).
    const registration = on
      ? await navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready)
      : await navigator.serviceWorker.getRegistration("/");
    let subscription = registration && (await registration.pushManager.getSubscription());
    if (!subscription && !on) return false;
    if (!subscription) {
      // A browser that cannot reach its push service may never answer: give up after 10 s.
      const giveUp = new Promise((_, reject) => setTimeout(() => reject(new Error("no push service")), 10000));
      const subscribing = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: decodeKey(publicKey) });
      subscription = await Promise.race([subscribing, giveUp]);
    }
    const answer = await notify(on ? "POST" : "DELETE", { subscription: subscription.toJSON() });
    if (!answer.ok) throw new Error("refused");
    return on;
  };

  // The seat's webhook, kept per room on this device so that it shows and can be stopped.
  const drawWebhook = () => {
    const kept = "tabula.webhook." + data.room;
    const field = element("input", { type: "url", id: "push-webhook", placeholder: "https://discord.com/api/webhooks/…" });
    field.value = localStorage.getItem(kept) || "";
    field.setAttribute("aria-label", data.webhook);
    const save = element("button", { type: "submit", id: "push-webhook-save", className: "button", textContent: data.webhookSave });
    const stop = element("button", { type: "button", id: "push-webhook-stop", className: "button", textContent: data.webhookStop });
    const said = element("p", { id: "push-webhook-said", className: "message" });
    said.setAttribute("role", "status");
    const form = element("form", {});
    // Saving another address stops the one kept; "Stop" stops the kept one, whatever the field says.
    const send = (method) => {
      said.textContent = "";
      const before = localStorage.getItem(kept);
      const address = method === "POST" ? field.value.trim() : before || field.value.trim();
      notify(method, { webhook: address })
        .then(async (answer) => {
          if (!answer.ok) {
            const error = (await answer.json().catch(() => ({}))).error || {};
            throw new Error(error.message || error.code || String(answer.status));
          }
          if (method === "POST") {
            if (before && before !== address) await notify("DELETE", { webhook: before }).catch(() => {});
            localStorage.setItem(kept, address);
          } else {
            localStorage.removeItem(kept);
            field.value = "";
          }
          said.textContent = data.webhookDone;
        })
        .catch((error) => (said.textContent = data.webhookFailed.replace("REASON", error.message)));
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send("POST");
    });
    stop.addEventListener("click", () => send("DELETE"));
    form.append(field, save, " ", stop);
    const details = element("details", { className: "push-webhook" });
    details.append(element("summary", { textContent: data.webhook }), form, said);
    slot.append(details);
  };

  // `/api/push` says whether the server sends pushes (asking `/api/notify` on a server without
  // keys would log its 404 in the console).
  fetch("/api/push")
    .then((answer) => (answer.ok ? answer.json() : {}))
    .then((push) => (push.webPush ? fetch("/api/notify") : null))
    .then((answer) => (answer && answer.ok ? answer.json() : null))
    .then(async (server) => {
      if (!server || slot.dataset.ready) return;
      slot.dataset.ready = "1";
      drawWebhook();
      if (!pushes) return;
      const label = document.createElement("label");
      label.className = "push-room";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.id = "push-room-on";
      label.append(box, " " + data.label);
      const failed = document.createElement("p");
      failed.className = "message";
      failed.id = "push-failed";
      failed.setAttribute("role", "status");
      slot.prepend(label, failed);
      const saved = localStorage.getItem(choice);
      const wanted = saved === null ? data.default === "1" : saved === "1";
      box.checked = await turn(server.publicKey, wanted, false).catch(() => false);
      box.addEventListener("change", () => {
        const on = box.checked;
        failed.textContent = "";
        turn(server.publicKey, on, true)
          .then((now) => {
            box.checked = now;
            localStorage.setItem(choice, now ? "1" : "0");
          })
          .catch((error) => {
            box.checked = false;
            failed.textContent = data.failed.replace("REASON", error.message || "failed");
          });
      });
    })
    .catch(() => {});
})();

// "Notify me when it is my move" in a room (Web Push; the server's side: api/_lib/notify/). A room
// page loads this once its player holds a seat (site/src/play/room/notify.rs), after its first
// paint, so no page's first load carries it; its `data-` attributes name the room, the seat's
// token, the words, and the device's default. Where the server sends pushes (GET /api/push says
// so, GET /api/notify gives the key) and
// the browser takes them, it draws a switch in `#push-room`: on, it registers the site's service
// worker (sw.js, scope "/"), subscribes this browser with the server's VAPID key and gives the
// subscription to the seat (POST /api/notify); off, it takes it back (DELETE). The player's choice
// is kept per room; a room they never chose in follows the default, without asking for permission
// (only a click asks).
(() => {
  const data = document.currentScript.dataset;
  const slot = document.getElementById("push-room");
  const choice = "tabula.push." + data.room;
  if (!slot || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;

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
    const answer = await fetch("/api/notify", {
      method: on ? "POST" : "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ roomId: data.room, token: data.token, subscription: subscription.toJSON() }),
    });
    if (!answer.ok) throw new Error("refused");
    return on;
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
      slot.append(label, failed);
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

// The room page's start. Writes the room's code and link into the pre-rendered heading at once,
// asks the API for the room (the app takes that answer: `tabulaRoom`), and starts the room bundle
// of its game: at once for a seat this browser remembers, else once the room is read. A room that
// cannot be read gets the home bundle, which explains. The build writes in `TABULA_BUNDLES`: each
// room bundle's and the home bundle's [JS, WASM] by name.
const bundles = TABULA_BUNDLES;
const code = location.pathname.split("/")[2] || "";
const name = document.querySelector(".room-name");
if (name) name.textContent = name.textContent.trim() + " " + code;
const link = document.querySelector(".share-url code");
if (link) link.textContent = location.origin + "/room/" + code;
const start = async (game) => {
  const [js, wasm] = bundles[game];
  const module = await import(js);
  module.default({ module_or_path: wasm });
};
const room = fetch("/api/game?roomId=" + encodeURIComponent(code))
  .then((answer) => (answer.ok ? answer.json() : null))
  .catch(() => null);
window.tabulaRoom = room;
let seat = null;
try {
  seat = JSON.parse(localStorage.getItem("tabula.seat." + code));
} catch (e) {}
const known = seat && seat.game && bundles[seat.game + "-room"] ? seat.game + "-room" : null;
if (known) {
  start(known);
} else {
  const found = await room;
  start(found && bundles[found.game + "-room"] ? found.game + "-room" : "home");
}

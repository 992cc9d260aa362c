// The computer player's Web Worker (a module worker the game pages start): the `ai` bundle,
// answering each message with its `answer`, then playing the rest of its search (`think`) in
// slices of about 50 ms, so that the next message is answered between two. The build writes in
// the bundle's files.
import init, { answer, think } from "TABULA_AI_JS";
const ready = init({ module_or_path: "TABULA_AI_WASM" });
let thinking = false;
const thinkOn = () => {
  const until = performance.now() + 50;
  let left;
  do left = think(256); while (left > 0 && performance.now() < until);
  thinking = left > 0;
  if (thinking) setTimeout(thinkOn, 0);
};
self.onmessage = async (event) => {
  await ready;
  self.postMessage(answer(event.data));
  if (!thinking) thinkOn();
};

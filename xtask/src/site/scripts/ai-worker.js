// The computer player's Web Worker (a module worker the game pages start): the `ai` bundle,
// answering each message with its `answer`. The build writes in the bundle's files.
import init, { answer } from "TABULA_AI_JS";
const ready = init({ module_or_path: "TABULA_AI_WASM" });
self.onmessage = async (event) => {
  await ready;
  self.postMessage(answer(event.data));
};

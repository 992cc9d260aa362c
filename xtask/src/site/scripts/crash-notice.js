// A Rust panic in the app ends in a WebAssembly trap, after which the page looks alive and does
// nothing: say so instead (and mark the page, for the tests).
addEventListener("error", (event) => {
  if (!(event.error instanceof WebAssembly.RuntimeError) || document.documentElement.dataset.panic) return;
  document.documentElement.dataset.panic = "1";
  const notice = document.createElement("p");
  notice.className = "crash";
  notice.setAttribute("role", "alert");
  notice.textContent = "Something went wrong. Please reload the page.";
  document.body.prepend(notice);
});

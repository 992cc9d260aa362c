// The Triplex pages work offline once visited (sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/triplex" });

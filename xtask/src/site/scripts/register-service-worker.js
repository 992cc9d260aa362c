// The Triplex pages work offline (sw.js, the site's one service worker).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" });

// The installable app: registers the service worker (/sw.js, scope: the whole site), keeps the
// installed app's icon badge in step with the games waiting on the player, and turns push on for this
// device from the Reminders page ("This device"). No framework.
(() => {
  if (!("serviceWorker" in navigator)) return;
  const ready = navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready);
  ready.catch(() => {});
  // Signed out: the copies of pages kept for opening without a connection go too.
  if (document.body && document.body.dataset.signedIn === "0" && window.caches) caches.delete("kept-pages").catch(() => {});

  // The badge, on each visit of the installed app (a push updates it in between); a browser tab has no
  // icon to badge, so it asks nothing.
  const installed = window.matchMedia("(display-mode: standalone)").matches;
  if (installed && navigator.setAppBadge && document.body && document.body.dataset.signedIn === "1") {
    fetch("/push/badge/", { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => {
        if (!data) return;
        return data.count > 0 ? navigator.setAppBadge(data.count) : navigator.clearAppBadge();
      })
      .catch(() => {});
  }

  const box = document.querySelector("[data-push]");
  if (!box) return;
  const show = (name) => {
    const element = box.querySelector(`[data-push-${name}]`);
    if (element) element.hidden = false;
  };
  const hide = (name) => {
    const element = box.querySelector(`[data-push-${name}]`);
    if (element) element.hidden = true;
  };
  if (!("PushManager" in window) || !("Notification" in window)) {
    show("unsupported");
    return;
  }
  const key = (text) => {
    const padded = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const csrf = () => {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  };
  ready.then(async (registration) => {
    const existing = await registration.pushManager.getSubscription();
    if (existing && Notification.permission === "granted") show("done");
    else if (Notification.permission === "denied") show("denied");
    else show("on");
  });
  box.querySelector("[data-push-on]").addEventListener("click", async () => {
    hide("error");
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        hide("on");
        show("denied");
        return;
      }
      const registration = await ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ||
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(box.dataset.key) }));
      const response = await fetch(box.dataset.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify(subscription.toJSON()),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || "");
      window.location.reload();
    } catch (error) {
      const line = box.querySelector("[data-push-error]");
      line.textContent = error.message || line.textContent;
      line.hidden = !line.textContent;
    }
  });
})();

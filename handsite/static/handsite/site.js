// Copy buttons: <button data-copy="#input-id" data-copied="Copied!">. No framework.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  const text = field.value || field.textContent;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    field.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = button.dataset.copied || label;
  setTimeout(() => { button.textContent = label; }, 2000);
});

// Time zone: the browser's zone (Intl API) is proposed and set with one tap. Signed in: a bar offers it
// when the page's zone differs (once per zone: "No, thanks" remembers). Fields marked
// data-browser-zone (sign-up, settings) are filled with it when empty. Before log-in, the cookie the
// server reads is set to it, so pages show the visitor's own time.
(() => {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return;
  }
  if (!zone) return;
  const cookie = (name) => {
    const found = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
    return found ? found.slice(name.length + 1).replaceAll('"', "") : "";
  };
  const remember = (name, value) => {
    document.cookie = `${name}=${value}; path=/; max-age=31536000; samesite=lax`;  // zone names are cookie-safe
  };
  document.querySelectorAll("input[data-browser-zone]").forEach((input) => {
    if (!input.value) input.value = zone;
  });
  const offer = document.querySelector("[data-zone-offer]");
  if (!offer) {
    if (!cookie("handsite_tz")) remember("handsite_tz", zone);
    return;
  }
  if (offer.dataset.current === zone || cookie("handsite_tz_declined") === zone) return;
  offer.querySelector("[name=time_zone]").value = zone;
  offer.querySelector("[data-zone-label]").textContent = zone.split("/").pop().replaceAll("_", " ");
  offer.hidden = false;
  offer.querySelector("[data-zone-dismiss]").addEventListener("click", () => {
    remember("handsite_tz_declined", zone);
    offer.hidden = true;
  });
})();
// A page in a background tab sends no htmx request (its polls wait until it is visible again). This
// replaces hx-trigger filters like [document.visibilityState === 'visible'], which need eval and so
// are off under the site's Content-Security-Policy (htmx-config allowEval: false).
document.addEventListener("htmx:confirm", (event) => {
  if (document.visibilityState === "hidden") event.preventDefault();
});

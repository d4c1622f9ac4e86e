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

// A page in a background tab sends no htmx request (its polls wait until it is visible again). This
// replaces hx-trigger filters like [document.visibilityState === 'visible'], which need eval and so
// are off under the site's Content-Security-Policy (htmx-config allowEval: false).
document.addEventListener("htmx:confirm", (event) => {
  if (document.visibilityState === "hidden") event.preventDefault();
});

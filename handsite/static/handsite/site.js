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

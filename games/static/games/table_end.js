// The play page's confirmations, the end of a deal or game on the table, and the tab's title. No framework.
// 1. A confirmation dialog (dialog.confirm, opened by its button's command="show-modal") closes when its
//    form's request starts; where the browser lacks command buttons, a click opens or closes it here.
// 2. The deal's (or game's) end (dialog.table-end[data-end-key]) once closed stays closed for this tab:
//    the key is kept in sessionStorage and the dialog is closed again after each refresh of #game.
// 3. The tab's title and icon follow #game[data-title] and [data-icon] (both say so while it is the
//    player's turn).
(() => {
  const STORE = "table-end-closed";
  const closedKeys = () => {
    try {
      return new Set(JSON.parse(sessionStorage.getItem(STORE) || "[]"));
    } catch {
      return new Set();
    }
  };
  const remember = (key) => {
    const keys = closedKeys();
    keys.add(key);
    try {
      sessionStorage.setItem(STORE, JSON.stringify([...keys].slice(-50)));
    } catch {
      // storage full or refused: the dialog simply comes back with the next refresh
    }
  };

  const refresh = () => {
    const game = document.getElementById("game");
    if (game && game.dataset.title) document.title = game.dataset.title;
    const icon = document.querySelector("link[rel=icon]");
    if (game && game.dataset.icon && icon && icon.getAttribute("href") !== game.dataset.icon) icon.setAttribute("href", game.dataset.icon);
    const keys = closedKeys();
    for (const dialog of document.querySelectorAll("dialog.table-end[data-end-key]")) {
      if (keys.has(dialog.dataset.endKey) && dialog.open) dialog.close();
    }
  };

  const commandsSupported = "command" in HTMLButtonElement.prototype;

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[commandfor]");
    if (!button) return;
    const dialog = document.getElementById(button.getAttribute("commandfor"));
    if (button.hasAttribute("data-end-close") && dialog && dialog.dataset.endKey) remember(dialog.dataset.endKey);
    if (commandsSupported || !(dialog instanceof HTMLDialogElement)) return;
    const command = button.getAttribute("command");
    if (command === "show-modal" && !dialog.open) dialog.showModal();
    else if (command === "close" && dialog.open) dialog.close();
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const dialog = event.target.closest && event.target.closest("dialog.confirm");
    if (dialog && dialog.open) dialog.close();
  });
  document.addEventListener("htmx:afterSwap", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
})();

// 4. The poll says whether the page is in view (seen=1): the server then marks the game's notifications
//    read, so a turn seen on the table never counts as unread in the header.
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.elt && event.detail.elt.id === "poll" && document.visibilityState === "visible") {
    event.detail.parameters.seen = "1";
  }
});

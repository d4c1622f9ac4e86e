// The play page. No framework.
// 1. Keep the cards a player has selected when the poll refreshes the board.
// 2. Panels (log, scores...) keep their open/closed state across refreshes; on a wide screen they start open.
(() => {
  let kept = [];
  let openPanels = null;
  const wide = () => window.matchMedia("(min-width: 64rem)").matches;
  const panels = () => [...document.querySelectorAll("#game .panel[data-panel]")];

  const restorePanels = () => {
    for (const panel of panels()) {
      if (openPanels === null) {
        if (wide()) panel.open = true;
      } else if (openPanels.has(panel.dataset.panel)) {
        panel.open = true;
      }
    }
  };

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (!event.detail.target || event.detail.target.id !== "game") return;
    openPanels = new Set(panels().filter((panel) => panel.open).map((panel) => panel.dataset.panel));
    if (event.detail.requestConfig.verb === "get") {
      kept = [...document.querySelectorAll("#game .pick:checked")].map((box) => box.value);
    } else {
      kept = [];
    }
  });
  document.addEventListener("htmx:afterSwap", () => {
    for (const value of kept) {
      const box = document.querySelector(`#game .pick[value="${CSS.escape(value)}"]`);
      if (box) box.checked = true;
    }
    kept = [];
    restorePanels();
  });
  document.addEventListener("DOMContentLoaded", restorePanels);
})();

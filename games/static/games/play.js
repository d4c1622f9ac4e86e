// The play page: keep the cards a player has selected when the poll refreshes the board. No framework.
(() => {
  let kept = [];
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "game" && event.detail.requestConfig.verb === "get") {
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
  });
})();

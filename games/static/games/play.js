// The play page. No framework.
// 1. Keep the cards a player has selected when the poll refreshes the board.
// 2. Panels (log, scores...) keep their open/closed state across refreshes; on a wide screen they start open.
// 3. The buttons follow the selection: the form carries data-picked (how many cards are selected);
//    play.css shows a button marked data-needs="cards" / "one" / "none" accordingly. The server still
//    decides whether the move is legal.
// 4. The hand (#hand[data-arrange]) can be rearranged by dragging a card (pointer events: mouse, pen or
//    touch); the new order is posted like any other press (act=arrange, order=ids), kept per seat.
// 5. A press in the dock while the chat field has focus keeps the focus there until the click is done.
//    While the field has focus, chat.css lets the dock step back to its place below; if the press took
//    the focus away (mousedown, or the mouse events of a tap), the dock would spring back to the bottom
//    of the screen between mousedown and mouseup and the click (a tap on "Draw") would be lost.
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

  const countPicks = () => {
    const form = document.getElementById("play-form");
    if (form) form.dataset.picked = String(form.querySelectorAll(".pick:checked").length);
  };

  document.addEventListener("change", (event) => {
    if (event.target.classList && event.target.classList.contains("pick")) countPicks();
  });
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
    countPicks();
  });
  document.addEventListener("DOMContentLoaded", () => {
    restorePanels();
    countPicks();
  });

  // Dragging a card of the hand to another place.
  const DRAG_START = 8; // px of movement before a press becomes a drag (a tap still selects)
  let drag = null;
  let swallowClick = false;

  const cardsOf = (hand) => [...hand.querySelectorAll(":scope > li")];

  document.addEventListener("pointerdown", (event) => {
    const item = event.target.closest && event.target.closest("#hand > li");
    if (!item || event.button > 0) return;
    drag = { item, hand: item.parentElement, x: event.clientX, y: event.clientY, moving: false, id: event.pointerId };
  });
  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    if (!drag.moving) {
      if (Math.abs(dx) < DRAG_START || Math.abs(dx) < Math.abs(event.clientY - drag.y)) return;
      drag.moving = true;
      drag.item.classList.add("dragging");
      drag.hand.classList.add("arranging");
    }
    event.preventDefault();
    // Move the card under the pointer: before the first card whose middle is past the pointer.
    const others = cardsOf(drag.hand).filter((li) => li !== drag.item);
    const rtlFree = others.map((li) => li.getBoundingClientRect()); // the hand is always left to right
    let before = null;
    for (let i = 0; i < others.length; i += 1) {
      const box = rtlFree[i];
      if (event.clientX < box.left + Math.min(box.width, 24) / 2) {
        before = others[i];
        break;
      }
    }
    if (before !== drag.item.nextElementSibling || (before === null && drag.item !== drag.hand.lastElementChild)) {
      drag.hand.insertBefore(drag.item, before);
    }
  });
  const endDrag = (event) => {
    if (!drag || (event && event.pointerId !== drag.id)) return;
    const { item, hand, moving } = drag;
    drag = null;
    if (!moving) return;
    item.classList.remove("dragging");
    hand.classList.remove("arranging");
    swallowClick = true; // the click that ends a drag does not select the card
    const form = document.getElementById("play-form");
    if (!form || !hand.hasAttribute("data-arrange")) return;
    for (const old of form.querySelectorAll("input[data-drag]")) old.remove();
    const add = (name, value) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      input.dataset.drag = "";
      form.appendChild(input);
    };
    add("act", "arrange");
    for (const box of hand.querySelectorAll(".pick")) add("order", box.value);
    form.requestSubmit();
  };
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", endDrag);
  document.addEventListener(
    "click",
    (event) => {
      if (swallowClick && event.target.closest && event.target.closest("#hand")) {
        event.preventDefault();
        event.stopPropagation();
      }
      swallowClick = false;
    },
    true,
  );

  // A press in the dock while typing in the chat (5).
  let pressWhileTyping = false;
  document.addEventListener("mousedown", (event) => {
    pressWhileTyping = false;
    const field = document.getElementById("chat-text");
    if (!field || document.activeElement !== field || !(event.target.closest && event.target.closest(".dock"))) return;
    event.preventDefault(); // no focus change: the dock stays where the press began
    pressWhileTyping = true;
  });
  document.addEventListener("click", () => {
    if (!pressWhileTyping) return;
    pressWhileTyping = false;
    // After the click has done its work, the field lets go as it would have on mousedown.
    setTimeout(() => document.getElementById("chat-text")?.blur(), 0);
  });
})();

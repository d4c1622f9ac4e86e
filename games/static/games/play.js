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
// 6. Direct play: a tap on a pile presses the action bar's button the pile names (data-press: draw;
//    take the discard or discard the selected card); with cards selected, a tap on a meld presses its
//    "Lay off here". A card dragged up out of the hand onto the discard pile or a meld does the same
//    with that card. The client only presses the buttons; the server decides.
// 7. Movement: a swap of #game (a move's answer, a poll that brought a change, a sort) runs as a view
//    transition (hx-swap "transition:true"): each card on the table and in the hand carries its own
//    view-transition-name, so it moves from where it was to where it is; a card drawn from the stock
//    starts at the stock. None under prefers-reduced-motion.
// 8. An optional tone when the turn comes to this person (off unless they turn it on; kept in this
//    browser), made with WebAudio.
// 9. Hand and Foot's folded rule box stays open across refreshes once opened; at the start of the
//    player's turn and after their own move, their melds are brought out from under the dock.
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
    beforeBoardSwap(event);
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
    afterBoardSwap();
  });
  document.addEventListener("DOMContentLoaded", () => {
    restorePanels();
    countPicks();
  });

  // Dragging a card of the hand: sideways to another place (4), or up onto the table to play it (6).
  const DRAG_START = 8; // px of movement before a press becomes a drag (a tap still selects)
  let drag = null;
  let swallowClick = false;

  const cardsOf = (hand) => [...hand.querySelectorAll(":scope > li")];
  const playForm = () => document.getElementById("play-form");

  // Presses the first of the action bar's buttons (name "act") with one of these values that the page
  // offers now; false when there is none (not this player's turn, or not this phase).
  const press = (values) => {
    for (const value of values) {
      const button = document.querySelector(`#actions button[name="act"][value="${CSS.escape(value)}"]`);
      if (button) {
        button.click();
        return true;
      }
    }
    return false;
  };

  // Where a dragged card can land: the discard pile while "Discard" is offered, a meld with "Lay off here".
  const dropTarget = (x, y) => {
    const under = document.elementFromPoint(x, y);
    if (!under || !under.closest) return null;
    const pile = under.closest("#game .pile-discard");
    if (pile && document.querySelector('#actions button[name="act"][value="discard"]')) return pile;
    const meld = under.closest("#melds .meld");
    if (meld && meld.querySelector('button[name="lay_off"]')) return meld;
    return null;
  };

  // Only this card selected (a discard), or this card added to the selection (a lay-off).
  const selectFor = (item, only) => {
    const box = item.querySelector(".pick");
    if (!box) return;
    if (only || !box.checked) {
      for (const other of document.querySelectorAll("#hand .pick:checked")) other.checked = false;
    }
    box.checked = true;
    countPicks();
  };

  const lift = (state, x, y) => {
    const face = state.item.querySelector(".pcard");
    if (!face) return;
    const box = face.getBoundingClientRect();
    const ghost = face.cloneNode(true);
    ghost.classList.add("drag-ghost");
    ghost.removeAttribute("data-card");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.inlineSize = `${box.width}px`;
    ghost.style.blockSize = `${box.height}px`;
    document.body.appendChild(ghost);
    state.ghost = ghost;
    state.grab = { x: x - box.left, y: y - box.top };
    state.item.classList.add("lifted");
  };

  const moveGhost = (state, x, y) => {
    state.ghost.style.left = `${x - state.grab.x}px`;
    state.ghost.style.top = `${y - state.grab.y}px`;
    const target = dropTarget(x, y);
    if (target !== state.target) {
      if (state.target) state.target.classList.remove("drop-target");
      if (target) target.classList.add("drop-target");
      state.target = target;
    }
  };

  document.addEventListener("pointerdown", (event) => {
    const item = event.target.closest && event.target.closest("#hand > li");
    if (!item || event.button > 0) return;
    drag = { item, hand: item.parentElement, x: event.clientX, y: event.clientY, moving: false, id: event.pointerId };
  });
  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < DRAG_START) return;
      drag.moving = true;
      drag.mode = Math.abs(dx) > Math.abs(dy) && drag.hand.hasAttribute("data-arrange") ? "arrange" : "lift";
      if (drag.mode === "arrange") {
        drag.item.classList.add("dragging");
        drag.hand.classList.add("arranging");
      } else {
        lift(drag, event.clientX, event.clientY);
      }
    }
    event.preventDefault();
    if (drag.mode === "lift") {
      if (drag.ghost) moveGhost(drag, event.clientX, event.clientY);
      return;
    }
    // Move the card under the pointer: before the first card in a later row, or in the pointer's row
    // whose middle is past the pointer (the hand is always left to right, in rows on a phone).
    const others = cardsOf(drag.hand).filter((li) => li !== drag.item);
    const boxes = others.map((li) => li.getBoundingClientRect());
    let before = null;
    for (let i = 0; i < others.length; i += 1) {
      const box = boxes[i];
      if (event.clientY < box.bottom && (event.clientY < box.top || event.clientX < box.left + Math.min(box.width, 24) / 2)) {
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
    const { item, hand, moving, mode, ghost, target } = drag;
    drag = null;
    if (!moving) return;
    swallowClick = true; // the click that ends a drag does not select the card
    if (mode === "lift") {
      item.classList.remove("lifted");
      if (ghost) ghost.remove();
      if (!target || event.type === "pointercancel") return;
      target.classList.remove("drop-target");
      if (target.matches(".pile-discard")) {
        selectFor(item, true);
        press(["discard"]);
      } else {
        selectFor(item, false);
        target.querySelector('button[name="lay_off"]').click();
      }
      return;
    }
    item.classList.remove("dragging");
    hand.classList.remove("arranging");
    const form = playForm();
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

  // A tap on a pile or (with cards selected) on a meld (6); the buttons inside them act as themselves.
  document.addEventListener("click", (event) => {
    const target = event.target.closest ? event.target : null;
    if (!target || target.closest("button, a, input, label, summary")) return;
    const pile = target.closest("#game [data-press]");
    if (pile) {
      press(pile.dataset.press.split(" "));
      return;
    }
    const meld = target.closest("#melds .meld");
    const form = playForm();
    if (meld && form && form.dataset.picked !== "0") {
      const button = meld.querySelector('button[name="lay_off"]');
      if (button) button.click();
    }
  });

  // Movement (7).
  const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const NAMED = "#hand .pcard, #game .pile-discard .pcard, #melds .meld-cards .pcard, #pending .pcard";
  const nameCards = () => {
    const names = new Set();
    for (const card of document.querySelectorAll(NAMED)) {
      const name = card.dataset.card ? `card-${card.dataset.card}` : "";
      if (!name || names.has(name)) continue; // a name may be worn once (else no transition runs)
      names.add(name);
      card.style.viewTransitionName = name;
    }
    return names;
  };
  document.addEventListener("htmx:beforeTransition", (event) => {
    if (reducedMotion()) {
      event.preventDefault(); // the swap happens at once
      return;
    }
    const names = nameCards();
    // The card drawn from the stock: in the answer's hand, nowhere on the page before.
    const answer = event.detail && event.detail.xhr ? event.detail.xhr.response : "";
    const stock = document.querySelector("#game .pile-stock .stock-back");
    if (!answer || !stock) return;
    const hand = new DOMParser().parseFromString(answer, "text/html").querySelectorAll("#hand .pcard");
    const drawn = [...hand].find((card) => card.dataset.card && !names.has(`card-${card.dataset.card}`));
    if (drawn) stock.style.viewTransitionName = `card-${drawn.dataset.card}`;
  });

  // The tone on "your turn" (8).
  const SOUND_KEY = "handsite.play.sound";
  let audio = null;
  let wasMyTurn = false;
  let foldOpen = false;
  let ownMove = false;
  const soundOn = () => {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch {
      return false;
    }
  };
  const tone = () => {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(660, now);
    oscillator.frequency.setValueAtTime(880, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.32);
  };
  const myTurn = () => Boolean(document.querySelector("#game #turn.your-turn"));
  document.addEventListener("change", (event) => {
    if (event.target.id !== "sound-toggle") return;
    try {
      window.localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off");
    } catch {
      // a browser that keeps nothing: the choice lasts for this page
    }
    if (event.target.checked) tone(); // a first tone, within the tap that allows a page to play sound
  });

  // Before and after each swap of #game (the poll, a move's answer, a sort).
  const beforeBoardSwap = (event) => {
    wasMyTurn = myTurn();
    foldOpen = Boolean(document.getElementById("rule-fold")?.open);
    ownMove = event.detail.requestConfig && event.detail.requestConfig.verb === "post";
  };
  const afterBoardSwap = () => {
    nameCards();
    const fold = document.getElementById("rule-fold");
    if (fold && foldOpen) fold.open = true;
  };
  // Once settled: htmx gives a swapped element with a known id its new classes only then.
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!event.detail.target || event.detail.target.id !== "game") return;
    if (!wasMyTurn && myTurn() && soundOn()) tone();
    wasMyTurn = myTurn();
    if (ownMove) showOwnMelds();
    ownMove = false;
  });
  // The player's own melds out from under the dock (9), as far as the piles stay on screen.
  const showOwnMelds = () => {
    const own = document.querySelector("#melds .meld-group-yours, #melds .foot-side-yours");
    const dock = document.getElementById("dock");
    const centre = document.getElementById("centre");
    if (!own || !dock || !centre) return;
    const under = own.getBoundingClientRect().bottom - dock.getBoundingClientRect().top + 8;
    const by = Math.min(under, centre.getBoundingClientRect().top - 4);
    if (under > 0 && by > 0) window.scrollBy({ top: by, behavior: "instant" });
  };
  document.addEventListener("DOMContentLoaded", () => {
    if (myTurn()) showOwnMelds();
    const setting = document.getElementById("sound");
    const toggle = document.getElementById("sound-toggle");
    if (setting && toggle) {
      toggle.checked = soundOn();
      setting.hidden = false;
    }
  });

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

// The play page for keyboards and screen readers. No framework; htmx swaps #game (a move's answer, a poll).
// 1. Focus stays where the player was: before a swap of #game the focused element is remembered (its id,
//    else its name and value, else its region); after the swap the same element, or its nearest stand-in,
//    takes the focus back. After "Draw" (its button is gone) the drawn card takes it, so the next keys
//    pick the card to discard.
// 2. The hand is one stop of the Tab key: the arrow keys (and Home, End) move between its cards, Space
//    selects, Tab leaves it (a roving tabindex, kept across swaps).
// 3. The skip link (the page's first Tab stop) lands on the first move offered.
// 4. One polite live region (#announcer, outside #game) reads what arrives: the new lines of the log (the
//    other players' moves as a poll brings them, or a move's answer), then "Your turn." when it becomes
//    the reader's turn. Cards are read by their names in words (their aria-label).
(() => {
  const game = () => document.getElementById("game");
  const hand = () => document.getElementById("hand");
  const picks = () => [...document.querySelectorAll("#hand .pick")];
  const visible = (element) => element && element.getClientRects().length > 0;

  // 2. The hand's roving tabindex.
  let current = null; // the value of the card that is the hand's Tab stop
  const rove = (focusIt) => {
    const boxes = picks();
    if (!boxes.length) return null;
    let stop = boxes.find((box) => box.value === current) || boxes[0];
    for (const box of boxes) box.tabIndex = box === stop ? 0 : -1;
    current = stop.value;
    if (focusIt) stop.focus();
    return stop;
  };
  document.addEventListener("keydown", (event) => {
    const box = event.target;
    if (!box.classList || !box.classList.contains("pick") || !box.closest("#hand")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const boxes = picks();
    const at = boxes.indexOf(box);
    // The hand reads left to right in every language (docs/rtl.md): right is the next card.
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: boxes.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = boxes[Math.max(0, Math.min(boxes.length - 1, to))];
    current = next.value;
    rove(true);
  });
  document.addEventListener("focusin", (event) => {
    const box = event.target;
    if (box.classList && box.classList.contains("pick") && box.closest("#hand")) {
      current = box.value;
      rove(false);
    }
  });

  // 1. Where the focus was, and where it goes back.
  let was = null;
  const describe = (element) => {
    if (!element || element === document.body || !game() || !game().contains(element)) return null;
    return {
      id: element.id,
      name: element.getAttribute("name"),
      value: element.getAttribute("value"),
      inActions: !!element.closest("#actions"),
      inHand: !!element.closest("#hand"),
      inDock: !!element.closest("#dock"),
      cards: picks().map((box) => box.value),
    };
  };
  const find = (memory) => {
    if (memory.id) {
      const same = document.getElementById(memory.id);
      if (visible(same)) return same;
    }
    if (memory.name) {
      const selector = `#game [name="${CSS.escape(memory.name)}"]` + (memory.value === null ? "" : `[value="${CSS.escape(memory.value)}"]`);
      const same = [...document.querySelectorAll(selector)].find(visible);
      if (same && same.type !== "hidden") return same;
    }
    const drawn = picks().find((box) => !memory.cards.includes(box.value));
    if (memory.inActions && drawn) {
      current = drawn.value;
      return rove(false);
    }
    if (memory.inActions) {
      const button = [...document.querySelectorAll("#actions button")].find(visible);
      if (button) return button;
    }
    if (memory.inDock || memory.inHand) {
      const stop = rove(false);
      if (stop) return stop;
    }
    return document.querySelector("#game h1");
  };
  const restore = () => {
    const memory = was;
    was = null;
    rove(false);
    if (!memory) return;
    const active = document.activeElement;
    if (active && active !== document.body && game() && game().contains(active)) return; // htmx kept it
    const target = find(memory);
    if (!target) return;
    if (!target.matches("a, button, input, select, textarea, summary, [tabindex]")) target.tabIndex = -1;
    target.focus({ preventScroll: !memory.inDock && !memory.inHand && !memory.inActions });
  };

  // 4. What the live region says.
  const spoken = (element) => {
    const copy = element.cloneNode(true);
    for (const card of copy.querySelectorAll("[aria-label]")) card.replaceWith(card.getAttribute("aria-label"));
    return copy.textContent.replace(/\s+/g, " ").trim();
  };
  const logLines = () => [...document.querySelectorAll("#game #log > li")].map(spoken);
  let before = null;
  const say = (message) => {
    const region = document.getElementById("announcer");
    if (!region || !message) return;
    region.textContent = "";
    setTimeout(() => {
      region.textContent = message;
    }, 50); // emptied first, so the same words twice are read twice
  };
  const news = () => {
    if (!before) return "";
    const lines = logLines(); // newest first
    const known = before.lines;
    let fresh = lines;
    if (known.length) {
      const at = lines.findIndex((_, i) => known.slice(0, 3).every((line, j) => lines[i + j] === line || i + j >= lines.length));
      fresh = at < 0 ? lines.slice(0, 3) : lines.slice(0, at);
    }
    const parts = fresh.slice(0, 6).reverse();
    const turn = document.querySelector("#game #turn");
    const mine = !!(turn && turn.classList.contains("your-turn"));
    if (mine && !before.mine) {
      const words = turn.querySelector("strong");
      if (words) parts.push(words.textContent.trim());
    }
    return parts.join(" ");
  };

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (!event.detail.target || event.detail.target.id !== "game") return;
    was = describe(document.activeElement);
    const turn = document.querySelector("#game #turn");
    before = { lines: logLines(), mine: !!(turn && turn.classList.contains("your-turn")) };
  });
  // After htmx's settle: until then an element kept by id still wears its old classes (#turn's).
  document.addEventListener("htmx:afterSettle", () => {
    if (before === null || !document.getElementById("game")) return;
    restore();
    say(news());
    before = null;
  });
  // The skip link to the dock lands on the first move offered (else the hand).
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('.skip-link[href="#dock"]');
    if (!link || !document.getElementById("dock")) return;
    event.preventDefault();
    const target = [...document.querySelectorAll("#actions button")].find(visible) || rove(false);
    if (target) target.focus();
  });
  document.addEventListener("DOMContentLoaded", () => rove(false));
})();

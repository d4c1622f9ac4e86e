// Table talk on the play page. No framework; no inline code (strict CSP).
// 1. The poll refreshes the whole game: keep what the player is typing (and where) across it.
// 2. Keep the newest message in view when the list was showing it (and after sending).
// 3. Seen: when the chat panel is open and shows a message from someone else that is new here, tell the
//    server once (the header's unread count follows); while it is closed, a dot on its title says so.
(() => {
  let draft = null;
  let atEnd = true;
  let seen = null; // the newest message from others this page has shown in an open panel
  const log = () => document.getElementById("chat-log");
  const input = () => document.getElementById("chat-text");
  const panel = () => document.getElementById("panel-chat");
  const form = () => document.getElementById("chat-form");
  const newest = () => Number((log() && log().dataset.newest) || 0);

  const toEnd = () => {
    const list = log();
    if (list) list.scrollTop = list.scrollHeight;
  };

  const markSeen = () => {
    const box = panel();
    const latest = newest();
    if (seen === null) seen = latest; // opening the page marked them read
    if (!box || latest <= seen) {
      if (box) box.classList.remove("chat-new");
      return;
    }
    if (!box.open || box.offsetParent === null) {
      box.classList.add("chat-new");
      return;
    }
    box.classList.remove("chat-new");
    seen = latest;
    const target = form();
    if (target && window.htmx) {
      window.htmx.ajax("POST", target.getAttribute("action"), {
        target: "#unread-badge",
        swap: "outerHTML",
        values: { read: "1" },
      });
    }
  };

  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (!target || (target.id !== "game" && target.id !== "chat")) return;
    const list = log();
    atEnd = !list || list.scrollHeight - list.scrollTop - list.clientHeight < 32;
    const box = input();
    draft = null;
    if (box && target.id === "game") {
      draft = {
        value: box.value,
        focused: document.activeElement === box,
        start: box.selectionStart,
        end: box.selectionEnd,
      };
    }
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    const target = event.detail.target;
    if (!target) return;
    const sent = target.id === "chat" || (target.closest && target.closest("#chat"));
    if (target.id !== "game" && !sent) return;
    const box = input();
    if (box && draft) {
      if (draft.value && !box.value) box.value = draft.value;
      if (draft.focused) {
        box.focus({ preventScroll: true });
        try {
          box.setSelectionRange(draft.start, draft.end);
        } catch (_error) {
          // an input that cannot select: leave the caret at the end
        }
      }
    } else if (box && sent) {
      box.focus({ preventScroll: true });
    }
    draft = null;
    if (atEnd || sent) toEnd();
  });

  // After htmx has settled the new elements' classes (it copies the old ones, then the new ones).
  document.addEventListener("htmx:afterSettle", (event) => {
    const target = event.detail.target;
    if (target && (target.id === "game" || target.id === "chat")) markSeen();
  });

  document.addEventListener(
    "toggle",
    (event) => {
      if (event.target && event.target.id === "panel-chat" && event.target.open) {
        toEnd();
        markSeen();
      }
    },
    true,
  );

  document.addEventListener("DOMContentLoaded", () => {
    toEnd();
    markSeen();
  });
})();

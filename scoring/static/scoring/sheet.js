// The card picker of the score sheet. No framework: "Pick cards" next to a cards field opens the
// one picker panel for that field; tapping a suit then ranks appends cards ("KS") to the field and
// fires an input event, so htmx asks the server to count them. Without JavaScript the field is typed.
(() => {
  const picker = () => document.getElementById("picker");
  let target = null;
  let suit = "S";

  const tokens = () => (target ? target.value.trim().split(/[\s,]+/).filter(Boolean) : []);

  function show() {
    const panel = picker();
    if (!panel || !target) return;
    const chips = panel.querySelector("[data-picker-cards]");
    chips.textContent = tokens().join(" ") || "—";
  }

  function write(list) {
    target.value = list.join(" ");
    target.dispatchEvent(new Event("input", { bubbles: true }));
    show();
  }

  function open(button) {
    const panel = picker();
    target = document.querySelector(button.dataset.pickerOpen);
    if (!panel || !target) return;
    panel.querySelector("[data-picker-name]").textContent = button.dataset.pickerName || "";
    // Put the panel right under the field it fills, so the count stays in view.
    button.closest(".cards-field").after(panel);
    panel.hidden = false;
    show();
    panel.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("click", (event) => {
    const el = event.target.closest("button");
    if (!el) return;
    if (el.dataset.pickerOpen) { open(el); return; }
    const panel = picker();
    if (!panel || !panel.contains(el) || !target) return;
    if (el.dataset.suit) {
      suit = el.dataset.suit;
      panel.querySelectorAll("[data-suit]").forEach((b) => b.setAttribute("aria-pressed", String(b === el)));
    } else if (el.dataset.rank) {
      write([...tokens(), el.dataset.rank + suit]);
    } else if (el.dataset.face) {
      write([...tokens(), el.dataset.face]);
    } else if (el.hasAttribute("data-picker-undo")) {
      write(tokens().slice(0, -1));
    } else if (el.hasAttribute("data-picker-clear")) {
      write([]);
    } else if (el.hasAttribute("data-picker-close")) {
      panel.hidden = true;
      target.focus();
      target = null;
    }
  });
})();

// The deal form: a block the page hides (the winner's, the winner's partner's, everyone's in a void
// deal, the "left in hand" of the side that went out) is disabled too, so what it holds is neither sent
// nor checked. A figure typed for a player ticks their "Opened" (the server reads it so as well).
(() => {
  const form = document.getElementById("deal-form");
  if (!form) return;

  function sync() {
    const winner = form.querySelector("input[name=winner]:checked");
    const seat = winner ? winner.value : null;
    const isVoid = Boolean(form.querySelector("#id_void:checked"));
    form.querySelectorAll("fieldset.player").forEach((block) => {
      const partners = (block.dataset.partners || "").split(" ").filter(Boolean);
      const off = isVoid || block.dataset.seat === seat || (seat !== null && partners.includes(seat));
      block.disabled = off;
      block.hidden = off;
    });
    const out = form.querySelector("input[name=went_out]:checked");
    form.querySelectorAll("fieldset.side").forEach((side) => {
      const off = out !== null && side.id === `side-${out.value}`;
      side.querySelectorAll(".held-row input, .held-cards input").forEach((el) => { el.disabled = off; });
    });
  }

  form.addEventListener("change", sync);
  form.addEventListener("input", (event) => {
    const match = /^held_(points|cards)_(\d+)$/.exec(event.target.name || "");
    if (!match || !event.target.value.trim()) return;
    const opened = document.getElementById(`id_opened_${match[2]}`);
    if (opened) opened.checked = true;
  });
  window.addEventListener("pageshow", sync);
  sync();
  // The form's id (and an edit's version) go back with the form when the browser refills it after
  // Back: a field is refilled only when its value differs from the page's, so the page leaves it
  // empty and this fills it (unless the browser already has).
  form.querySelectorAll("input[data-key]").forEach((input) => {
    if (!input.value) input.value = input.dataset.key;
  });
})();

// Quick entry: Enter (the phone keyboard's "Next") in a number of the deal form moves to the next
// number on the page instead of sending the form, so a deal is typed in one go; Save sends it.
// Choosing who went out on a form still empty goes on to the first number to type, and a count of
// books (one digit at a table) typed into an empty box goes on to the next by itself; typed into a box
// that already holds a digit it stays, so 12 books can still be typed.
(() => {
  const form = document.getElementById("deal-form");
  if (!form) return;
  const numbers = () =>
    [...form.querySelectorAll("input[type=number]")].filter(
      (input) => !input.disabled && input.offsetParent !== null,
    );
  const after = (input) => {
    const shown = numbers();
    return shown[shown.indexOf(input) + 1];
  };
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.target.type !== "number") return;
    const next = after(event.target);
    event.preventDefault();
    if (next) next.focus();
    else form.querySelector("button[type=submit]").focus();
  });
  form.addEventListener("change", (event) => {
    if (!["winner", "went_out"].includes(event.target.name)) return;
    const shown = numbers();
    if (shown.length && shown.every((input) => input.value === "")) shown[0].focus();
  });
  form.addEventListener("focusin", (event) => {
    if ("advance" in event.target.dataset) event.target.dataset.from = event.target.value;
  });
  form.addEventListener("input", (event) => {
    const input = event.target;
    if (!("advance" in input.dataset) || input.dataset.from !== "" || !/^\d$/.test(input.value)) return;
    input.dataset.from = input.value;
    const next = after(input);
    if (next) next.focus();
  });
})();

// The result card's "Share": the phone's own share sheet (WhatsApp and the rest) where the browser has
// the Web Share API; elsewhere the button stays hidden and "Copy" copies the link.
(() => {
  if (!navigator.share) return;
  document.querySelectorAll("[data-share]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: button.dataset.shareTitle, url: button.dataset.share }).catch(() => {});
    });
  });
})();

// Score entry without signal. A new deal saved with no connection (or behind deals still waiting) is
// kept on this phone in IndexedDB with an id made here, shown at once as "waiting to send" with its
// facts, and sent in order when the connection is back: on load, on `online`, by "Send now", and by
// Background Sync where the browser has it (the worker then asks the open page to send). Each is
// posted as the deal form would post it, with its id as the form's id: the server saves an id once,
// so a resend after a lost answer adds nothing. The server scores; a deal it refuses is kept with its
// reason for the player to fix or drop. Also keeps the screen awake while the sheet is open.
(() => {
  const root = document.querySelector("[data-offline-deals]");
  if (!root || !window.indexedDB) return;
  const sheet = root.dataset.sheet;
  const post = root.dataset.post;
  const form = root.hasAttribute("data-form") ? document.getElementById("deal-form") : null;
  const list = root.querySelector("[data-offline-list]");
  const item = root.querySelector("[data-offline-item]");
  const PAGES = "kept-pages";
  let count = 0; // deals waiting for this sheet, as last drawn
  const SKIPPED = new Set(["csrfmiddlewaretoken", "deal_key", "deal_key_page", "position", "version", "version_page"]);

  // --- The store on the phone -----------------------------------------------------------------
  const opened = new Promise((resolve, reject) => {
    const request = indexedDB.open("hand-scores", 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore("deals", { keyPath: "id" });
      store.createIndex("sheet", "sheet");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

  async function run(mode, work) {
    const db = await opened;
    return new Promise((resolve, reject) => {
      const tx = db.transaction("deals", mode);
      const result = work(tx.objectStore("deals"));
      tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      tx.onerror = () => reject(tx.error);
    });
  }
  const waiting = async () =>
    ((await run("readonly", (store) => store.index("sheet").getAll(sheet))) || []).sort((a, b) => a.order - b.order);
  const keep = (deal) => run("readwrite", (store) => store.put(deal));
  const forget = (id) => run("readwrite", (store) => store.delete(id));

  const newId = () => {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };

  // --- The list ---------------------------------------------------------------------------------
  const clock = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });

  async function draw() {
    const deals = await waiting();
    list.replaceChildren();
    for (const deal of deals) {
      const row = item.content.firstElementChild.cloneNode(true);
      row.dataset.id = deal.id;
      const slot = (name) => row.querySelector(`[data-slot="${name}"]`);
      slot("state-waiting").hidden = deal.state !== "waiting";
      slot("state-sending").hidden = deal.state !== "sending";
      slot("state-refused").hidden = deal.state !== "refused";
      slot("time").textContent = clock.format(new Date(deal.made));
      slot("time").dateTime = new Date(deal.made).toISOString();
      for (const line of deal.facts) {
        const li = document.createElement("li");
        li.textContent = line;
        slot("facts").append(li);
      }
      slot("reason").hidden = deal.state !== "refused";
      slot("reason").textContent = deal.reason || "";
      slot("fix-link").hidden = deal.state !== "refused";
      slot("fix-link").href = `${post}#fix=${deal.id}`;
      slot("drop").addEventListener("click", (event) => {
        if (window.confirm(event.currentTarget.dataset.confirm)) drop(deal.id);
      });
      list.append(row);
    }
    count = deals.length;
    root.hidden = count === 0;
    root.querySelector("[data-offline-offline]").hidden = navigator.onLine;
    const kept = document.querySelector("[data-offline-kept]");
    if (kept && navigator.onLine) kept.hidden = true;
    return deals;
  }

  async function drop(id) {
    const deals = await waiting();
    const gone = deals.find((deal) => deal.id === id);
    if (!gone) return;
    await forget(id);
    // A deal refused for breaking a rule left its place empty: the ones after it move up one place.
    // One refused because another deal took its place leaves them where they are.
    if (!gone.taken) {
      for (const deal of deals) {
        if (deal.order > gone.order && deal.position) await keep({ ...deal, position: deal.position - 1 });
      }
    }
    await draw();
    send();
  }

  // --- What a deal says, in the page's own words (the server scores it when it arrives) -----------
  function labelOf(input) {
    const label = input.closest("label") || (input.id && form.querySelector(`label[for="${input.id}"]`));
    return label ? label.textContent.replace(/\s+/g, " ").trim() : input.name;
  }

  function partsOf(inputs) {
    const parts = [];
    for (const input of inputs) {
      if (!input.name || input.disabled || input.hidden || input.type === "hidden" || SKIPPED.has(input.name)) continue;
      if (input.type === "radio" || input.type === "checkbox") {
        if (input.checked) parts.push(labelOf(input));
      } else if (input.value.trim()) {
        parts.push(`${labelOf(input)} ${input.value.trim()}`);
      }
    }
    return parts;
  }

  function factsOf() {
    const lines = partsOf([...form.querySelectorAll("input")].filter((input) => !input.closest("fieldset")));
    for (const block of form.querySelectorAll("fieldset")) {
      if (block.disabled || block.hidden) continue;
      const parts = partsOf([...block.querySelectorAll("input")].filter((input) => input.closest("fieldset") === block));
      const legend = block.querySelector(":scope > legend");
      const name = legend ? legend.textContent.trim() : "";
      const lead = !name ? "" : /[?؟:]$/.test(name) ? `${name} ` : `${name}: `;
      if (parts.length) lines.push(lead + parts.join(" · "));
    }
    return lines;
  }

  // --- Sending ----------------------------------------------------------------------------------
  const parse = (html) => new DOMParser().parseFromString(html, "text/html");
  const textOf = (nodes) => [...nodes].map((node) => node.textContent.replace(/\s+/g, " ").trim()).filter(Boolean);

  async function freshSheet() {
    const response = await fetch(sheet, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok || response.redirected) throw new Error("sheet");
    const page = parse(await response.text());
    let token = "";
    try {
      token = JSON.parse(page.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch {
      token = "";
    }
    return { page, token };
  }
  const arrived = (page, id) => Boolean(page.querySelector(`tr[data-deal-key="${CSS.escape(id)}"]`));

  // The answer to one deal: "saved", "refused" (with the reason), or null (not sent; try later).
  async function sendOne(deal) {
    const { page, token } = await freshSheet();
    if (arrived(page, deal.id)) return { outcome: "saved" };
    const body = new URLSearchParams(deal.fields);
    body.set("csrfmiddlewaretoken", token);
    body.set("deal_key", deal.id);
    if (deal.position) body.set("position", String(deal.position));
    const response = await fetch(post, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": token },
      body,
    });
    const where = new URL(response.url, location.href).pathname;
    if (response.ok && response.redirected && where === new URL(sheet, location.href).pathname) return { outcome: "saved" };
    if (response.status !== 200 && response.status !== 403) return null;
    const answer = parse(await response.text());
    const takenLink = answer.querySelector("[data-testid=saved-first]");
    if (takenLink) {
      const again = await freshSheet();
      if (arrived(again.page, deal.id)) return { outcome: "saved" }; // this very deal, saved before the answer got lost
    }
    const form = answer.getElementById("deal-form");
    const reasons = form ? textOf(form.querySelectorAll("#deal-errors li, .form-errors li")) : textOf(answer.querySelectorAll("main h1, main p"));
    if (!form && response.status === 200) return null; // another page (signed out): sent once signed in again
    return { outcome: "refused", reason: [...new Set(reasons)].join(" "), taken: Boolean(takenLink) };
  }

  let sending = null;
  function send() {
    if (!navigator.onLine) return draw();
    if (!sending) {
      const work = () => flush().finally(() => { sending = null; });
      sending = navigator.locks ? navigator.locks.request(`hand-deals ${sheet}`, work) : work();
    }
    return sending;
  }

  async function flush() {
    let saved = 0;
    let last = null;
    for (const deal of await waiting()) {
      if (deal.state === "refused") break; // the ones after it wait until it is fixed or dropped
      await keep({ ...deal, state: "sending" });
      await draw();
      let answer = null;
      try {
        answer = await sendOne(deal);
      } catch {
        answer = null;
      }
      if (!answer) {
        await keep({ ...deal, state: "waiting" });
        break;
      }
      if (answer.outcome === "saved") {
        await forget(deal.id);
        saved += 1;
        last = deal;
      } else {
        await keep({ ...deal, state: "refused", reason: answer.reason, taken: answer.taken });
        break;
      }
    }
    const left = await draw();
    if (saved) arrivedNow(last, left);
  }

  // Deals arrived: the sheet shows them (scored); an untouched deal form starts afresh from the server.
  let touched = false;
  function arrivedNow(last, left) {
    refreshKept([sheet, post]);
    if (left.length) return;
    if (!form || !touched) {
      if (form) location.replace(post);
      else location.reload();
      return;
    }
    const position = form.querySelector("[name=position]");
    if (position && last.position) position.value = String(last.position + 1);
  }

  // --- The deal form: kept when there is no connection, or behind deals still waiting ------------
  let fixing = null;
  async function loadFix() {
    const match = /^#fix=([\w-]+)$/.exec(location.hash);
    if (!form || !match) return;
    const deal = (await waiting()).find((d) => d.id === match[1]);
    if (!deal) return;
    fixing = deal;
    form.reset();
    for (const [name, value] of deal.fields) {
      for (const input of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value || (input.type === "checkbox" && value === "on");
        else input.value = value;
      }
    }
    form.dispatchEvent(new Event("change", { bubbles: true }));
    const reason = root.querySelector(`[data-id="${CSS.escape(deal.id)}"] [data-slot=reason]`);
    if (reason) reason.scrollIntoView({ block: "nearest" });
  }

  if (form) {
    form.addEventListener("input", () => { touched = true; });
    form.addEventListener("change", (event) => { if (event.isTrusted) touched = true; });
    form.addEventListener("submit", async (event) => {
      if (navigator.onLine && count === 0 && !fixing) return; // online: the form posts as it always has
      event.preventDefault();
      const fields = [...new FormData(form, event.submitter)].filter(([name, value]) => !SKIPPED.has(name) && typeof value === "string");
      const deals = await waiting();
      const pagePosition = Number((form.querySelector("[name=position]") || {}).value) || null;
      if (fixing) {
        const first = deals[0] && deals[0].id === fixing.id;
        await keep({
          ...fixing,
          fields,
          facts: factsOf(),
          state: "waiting",
          reason: "",
          position: fixing.taken && first ? pagePosition : fixing.position,
          taken: false,
        });
        fixing = null;
        history.replaceState(null, "", location.pathname);
      } else {
        const before = deals[deals.length - 1];
        await keep({
          id: newId(),
          sheet,
          post,
          order: Date.now(),
          made: Date.now(),
          position: before ? (before.position ? before.position + 1 : null) : pagePosition,
          fields,
          facts: factsOf(),
          state: "waiting",
        });
      }
      form.reset();
      touched = false;
      form.dispatchEvent(new Event("change", { bubbles: true }));
      const note = document.querySelector("[data-offline-kept]");
      if (note) note.hidden = navigator.onLine;
      await draw();
      root.scrollIntoView({ block: "start" });
      send();
    });
    window.addEventListener("hashchange", loadFix);
  }

  // Copies of this sheet and its deal form, for opening them with no connection: the worker serves
  // them only when the network fails, and refreshes them each time they are opened online. This adds
  // the ones it does not have yet, and fetches the deal form again (``fresh``) whenever the sheet is
  // shown or changes, so that a deal entered offline is made for the place the sheet has now. Opening
  // the deal form is one request: it keeps nothing itself, until its waiting deals have arrived.
  async function refreshKept(fresh = []) {
    if (!window.caches || !navigator.onLine || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    const open = form || document.querySelector(`a[href="${CSS.escape(post)}"]`);
    try {
      const cache = await caches.open(PAGES);
      await Promise.all((open ? [sheet, post] : [sheet]).map(async (url) => {
        if (!fresh.includes(url) && (await cache.match(url))) return;
        const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
        if (response.ok && !response.redirected) await cache.put(url, response);
      }));
    } catch {
      // nothing kept this time
    }
  }
  const live = document.getElementById("sheet-live");
  if (!form && live && live.parentElement) {
    // The live part is swapped whole when the sheet changed (a deal from another phone).
    new MutationObserver(() => refreshKept([post])).observe(live.parentElement, { childList: true });
  }

  root.querySelector("[data-offline-send]").addEventListener("click", () => send());
  window.addEventListener("online", () => send());
  window.addEventListener("offline", () => draw());
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "send-deals") send();
    });
  }
  draw().then(async (deals) => {
    await loadFix();
    if (deals.length) {
      send();
      if (navigator.serviceWorker && window.SyncManager) {
        navigator.serviceWorker.ready.then((registration) => registration.sync.register("hand-deals")).catch(() => {});
      }
    } else if (navigator.onLine && !form) {
      refreshKept([post]); // the deal form itself asks for nothing more than its page
    }
  });

  // Background Sync: ask for one when a deal is kept, so the browser wakes the worker once online.
  if (form && navigator.serviceWorker && window.SyncManager) {
    form.addEventListener("submit", () => {
      navigator.serviceWorker.ready.then((registration) => registration.sync.register("hand-deals")).catch(() => {});
    });
  }
})();

// The screen stays on while the sheet is open (Screen Wake Lock, where the browser has it); the toggle
// is remembered on this phone.
(() => {
  const box = document.querySelector("[data-wake-lock]");
  if (!box || !("wakeLock" in navigator)) return;
  const toggle = box.querySelector("[data-wake-lock-toggle]");
  const KEY = "hand-wake-lock";
  let lock = null;
  box.hidden = false;
  toggle.checked = localStorage.getItem(KEY) !== "off";

  async function hold() {
    if (!toggle.checked || document.visibilityState !== "visible" || lock) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      box.dataset.held = "1";
      lock.addEventListener("release", () => {
        lock = null;
        box.dataset.held = "0";
      });
    } catch {
      lock = null; // refused (battery saver, a hidden page): the screen sleeps as usual
    }
  }
  function release() {
    if (lock) lock.release().catch(() => {});
    lock = null;
    box.dataset.held = "0";
  }
  toggle.addEventListener("change", () => {
    localStorage.setItem(KEY, toggle.checked ? "on" : "off");
    if (toggle.checked) hold();
    else release();
  });
  document.addEventListener("visibilitychange", hold);
  hold();
})();

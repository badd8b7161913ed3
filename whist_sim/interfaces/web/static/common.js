// Shared by every page: the JSON API and a few DOM helpers.
"use strict";
const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];   // suit codes 0..3 (C D H S), RULES §1
const SUIT_LETTERS = "CDHS";

async function api(path, body, method) {
  const opts = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: "the server's answer is not JSON" }; }
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

function showError(box, err) {
  box.textContent = err ? String(err.message || err) : "";
  box.classList.toggle("hidden", !err);
}

function fmt(x, d) { return x === null || x === undefined ? "–" : Number(x).toFixed(d); }
function pct(x, d) { return x === null || x === undefined ? "–" : (100 * x).toFixed(d === undefined ? 1 : d) + "%"; }

// The rule options of /api/info as inputs (ids "rule_NAME"), and back: the options that differ
// from the rule book's defaults. `skip`: options a page asks elsewhere (the play page's players).
function buildRuleInputs(box, info, skip) {
  for (const [name, def] of Object.entries(info.rules)) {
    if ((skip || []).includes(name)) continue;
    let input;
    if (typeof def === "boolean") {
      input = el("input", { type: "checkbox", id: "rule_" + name, checked: def });
    } else if (info.rule_choices[name]) {
      input = el("select", { id: "rule_" + name }, info.rule_choices[name].map((c) => el("option", { value: c, selected: c === def }, c)));
    } else if (Array.isArray(def)) {
      input = el("input", { type: "text", id: "rule_" + name, value: def.join(",") });
    } else {
      const [lo, hi] = (info.rule_ranges || {})[name] || [];
      input = el("input", { type: "number", id: "rule_" + name, value: def, min: lo, max: hi, style: "width:6em" });
    }
    box.appendChild(el("label", { title: (info.rule_help || {})[name] || "" }, name.replaceAll("_", " ") + " ", input));
  }
}

function changedRules(info) {
  const rules = {};
  for (const [name, def] of Object.entries(info.rules)) {
    const input = document.getElementById("rule_" + name);
    if (!input) continue;
    let v = input.type === "checkbox" ? input.checked : input.value;
    if (typeof def === "number") v = Number(v);
    const same = Array.isArray(def) ? v === def.join(",") : v === def;
    if (!same) rules[name] = v;
  }
  return rules;
}

// How long the engine has been starting (GET /api/status, whist_sim/interfaces/web/warmth.py), in words,
// or null when it is ready. `kind`: "play" or "advice". A compile says how long it took on this
// machine the last time it was measured, or gives no estimate.
async function engineStarting(kind) {
  try {
    const status = await api("/api/status");
    const st = status.engine[kind];
    if (st.state !== "starting") return null;
    const so_far = `${Math.round(st.seconds)} s so far`;
    if (st.compiling) {
      const last = (status.measured || {})[kind];
      const estimate = last ? `the last time on this machine it took ${Math.round(last)} s` : "later runs load them from the cache";
      return `The engine is starting: compiling its kernels, as on its first use after an install or an update (${estimate}). ${so_far}, ${Math.round(st.compile_seconds)} s of it compiling.`;
    }
    return `The engine is starting: loading its compiled kernels from the cache. ${so_far}.`;
  } catch (e) { return null; }
}

// ------------------------------------------------------------------ the card picker
// A hand entered by tapping its cards, grouped by suit (spades, hearts, diamonds, clubs), every
// card a 44 px button with a spoken name; `onchange(picked)` after every tap. Returns
// {picked, set(cards), clear(), text()} (text: PBN, spades.hearts.diamonds.clubs, RULES §9).
const PICK_RANKS = "AKQJT98765432";
const PICK_SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const PICK_RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
function cardPicker(box, onchange) {
  const picked = new Set();
  const text = () => [3, 2, 1, 0].map((s) => [...PICK_RANKS].filter((r) => picked.has(r + SUIT_LETTERS[s])).join("")).join(".");
  const draw = () => box.querySelectorAll("button[data-card]").forEach((b) => {
    const on = picked.has(b.dataset.card);
    b.classList.toggle("on", on);
    b.setAttribute("aria-pressed", String(on));
  });
  for (const s of [3, 2, 1, 0]) {
    const red = s === 1 || s === 2;
    const ranks = el("div", { class: "ranks" });
    for (const r of PICK_RANKS) {
      const code = r + SUIT_LETTERS[s];
      ranks.appendChild(el("button", { type: "button", "data-card": code, class: red ? "red" : "", "aria-pressed": "false",
        "aria-label": `${PICK_RANK_NAMES[r] || r} of ${PICK_SUIT_NAMES[s]}`,
        onclick: () => {
          if (picked.has(code)) picked.delete(code); else picked.add(code);
          draw();
          onchange(picked);
        } }, r === "T" ? "10" : r));
    }
    box.appendChild(el("div", { class: "suitrow", role: "group", "aria-label": PICK_SUIT_NAMES[s] },
      el("span", { class: "suitlabel" + (red ? " red" : ""), "aria-hidden": "true" }, SUIT_SYMBOLS[s]), ...ranks.children));
  }
  return {
    picked, text,
    clear() { picked.clear(); draw(); },
    set(cards) { picked.clear(); for (const c of cards) picked.add(c); draw(); },
    fromText(value) {  // typed PBN shows on the picker; other notations clear it
      const cards = [];
      const parts = value.trim().toUpperCase().replaceAll("10", "T").split(".");
      if (parts.length === 4) parts.forEach((ranks, k) => { for (const r of ranks) if (PICK_RANKS.includes(r)) cards.push(r + SUIT_LETTERS[3 - k]); });
      this.set(cards);
    },
  };
}

// A strain in symbols: "S" -> "♠", "NT" -> "NT"; a call "6S" -> "6 ♠".
function strainSymbol(s) { const i = SUIT_LETTERS.indexOf(s); return s === "NT" || i < 0 ? "NT" : SUIT_SYMBOLS[i]; }
function callSymbols(text) { const m = /^(\d+)(NT|[CDHS])$/.exec(text || ""); return m ? `${m[1]}\u00a0${strainSymbol(m[2])}` : text; }

// A progress counter that never goes backwards: `show(done, total)` keeps the largest done seen
// for the same total.
function progressKeeper() {
  let best = 0, of = null;
  return {
    reset() { best = 0; of = null; },
    seen(done, total) { if (total !== of) { of = total; best = 0; } best = Math.max(best, done); return best; },
  };
}

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
// or null when it is ready. `kind`: "play" or "advice".
async function engineStarting(kind) {
  try {
    const st = (await api("/api/status")).engine[kind];
    if (st.state !== "starting") return null;
    const so_far = `${Math.round(st.seconds)} s so far`;
    if (st.compiling) {
      return `The engine is starting: compiling its kernels, as on its first use after an install or an update (under a minute on two cores; later runs load them from the cache). ${so_far}, ${Math.round(st.compile_seconds)} s of it compiling.`;
    }
    return `The engine is starting: loading its compiled kernels from the cache. ${so_far}.`;
  } catch (e) { return null; }
}

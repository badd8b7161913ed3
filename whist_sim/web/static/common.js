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

function cardEl(c, extra) {
  // a card as CSS: rank and suit symbol top left, the symbol large bottom right
  return el("span", { class: "card s" + c.suit + (extra ? " " + extra : ""), "data-card": c.text,
                      title: c.text },
            el("span", {}, c.rank + c.symbol), el("span", { class: "big" }, c.symbol));
}

function fmt(x, d) { return x === null || x === undefined ? "–" : Number(x).toFixed(d); }
function pct(x, d) { return x === null || x === undefined ? "–" : (100 * x).toFixed(d === undefined ? 1 : d) + "%"; }

// The charts page: what to bid with a hand from the bid chart (POST /api/chart), the chart as a
// table (GET /api/chart/cells), and the Markdown reports of results/ and of user datasets,
// rendered by the server.
"use strict";
const $ = (id) => document.getElementById(id);
let picker = null, cells = null, position = 0, answerCell = null;

// ------------------------------------------------------------------ the lookup
function countText() { $("count").textContent = picker.picked.size ? `${picker.picked.size} cards` : ""; }

function lookupBody() {
  const body = { hand: $("hand").value.trim(), trump: $("trump").value, players: Number($("players").value) };
  for (const f of ["declarer", "level"]) { const v = $(f).value.trim(); if (v !== "") body[f] = Number(v); }
  if ($("bids").value.trim()) body.bids = $("bids").value.trim();
  return body;
}

function signedPoints(x) { return (x > 0 ? "+" : "") + x.toFixed(1); }

async function lookupHand(ev) {
  ev.preventDefault();
  showError($("lookuperror"), null);
  $("answer").classList.add("hidden");
  answerCell = null;
  let a;
  try { a = await api("/api/chart", lookupBody()); } catch (e) { showError($("lookuperror"), e); drawCells(); return; }
  const sym = strainSymbol(a.trump), c = a.cell;
  let head;
  if (a.bid === null) head = "The chart cannot answer this hand: neither of its cell's two bids is legal for it.";
  else {
    const ev0 = a.bid === a.best.bid ? a.best.ev : a.runner_up.ev;
    head = `Bid ${a.bid}\u00a0${sym}: expected ${signedPoints(ev0)} points a deal`;
    const other = a.bid === a.best.bid ? a.runner_up : a.best;
    if (other && !(String(other.bid) in a.illegal)) {
      if (a.bid === a.best.bid) {
        head += `; ${other.bid} is ${a.difference.points.toFixed(1)} points worse` +
          (a.difference.separated ? "" : ", too close to tell apart on the chart's hands");
      } else head += `; the cell's best bid, ${other.bid}, is not legal for you`;
    }
    head += ".";
  }
  $("answersentence").textContent = head;
  const why = Object.entries(a.illegal).map(([b, w]) => ` ${b} is not legal for this hand: ${w}.`).join("");
  const trumps = c.trump_class === "NT" ? "played at no trump" : `${c.trump_class} trump${c.trump_class === "1" ? "" : "s"}`;
  $("answerdetail").textContent = `Best bid of the cell ${a.best.bid}` + (a.runner_up ? `, runner-up ${a.runner_up.bid}` : "") +
    `. The cell: ${positionName(c.position, a.players)}, ${c.hcp_band} high-card points (this hand: ${a.hcp}), ${trumps}; ` +
    `${c.hands.toLocaleString()} hands of ${a.chart}. A cell averages the hands it covers.` + why;
  const q = new URLSearchParams({ hand: a.hand, trump: a.trump, declarer: a.scenario.declarer, level: a.scenario.level,
                                  seat: a.scenario.seat, bids: a.scenario.bids.join(","), players: a.players });
  $("advicelink").href = "/advisor?" + q.toString();
  $("answer").classList.remove("hidden");
  answerCell = c;
  if (a.players === 4 && c.panel !== undefined) { position = c.position; }
  drawCells();
}

function positionName(p, players) {
  if (p === 0) return "the declarer";
  if (p === players - 1) return "the last bidder";
  return ["the second", "the third"][p - 1] + " bidder";
}

// ------------------------------------------------------------------ the chart as a table
const CLASSES = ["0", "1", "2", "3", "4", "5", "6", "7+", "NT"];
function drawCells() {
  if (!cells) return;
  const players = Math.max(...cells.map((c) => c.position)) + 1;
  $("positions").replaceChildren(...[...Array(players).keys()].map((p) => el("button", {
    type: "button", class: p === position ? "on" : "", "aria-pressed": String(p === position),
    onclick: () => { position = p; drawCells(); } }, ["1st (declarer)", "2nd", "3rd", players === 4 ? "4th (last)" : ""][p] || `${p + 1}th`)));
  const mine = cells.filter((c) => c.position === position);
  const bands = [...new Set(mine.map((c) => c.hcp_band))].sort((x, y) => parseInt(y) - parseInt(x));
  const find = (band, cls) => mine.find((c) => c.hcp_band === band && c.trump_class === cls);
  const table = el("table", { class: "data cells", id: "cells" },
    el("caption", {}, `${positionName(position, players)}: the best bid by high-card points (rows) and trump length (columns)`),
    el("tr", {}, el("th", { scope: "col" }, "HCP"), CLASSES.map((k) => el("th", { scope: "col" }, k))),
    bands.map((band) => el("tr", {}, el("th", { scope: "row" }, band), CLASSES.map((k) => {
      const c = find(band, k);
      if (!c) return el("td", { class: "none" }, "");
      const here = answerCell && answerCell.position === c.position && answerCell.hcp_band === band && answerCell.trump_class === k;
      const shade = Math.min(c.best_bid, 13) / 13;
      return el("td", { class: here ? "here" : "", style: `background: hsl(215, 70%, ${Math.round(97 - 40 * shade)}%)`,
        title: `best ${c.best_bid}, runner-up ${c.second_bid}, ${c.hands} hands` },
        String(c.best_bid) + (c.separated ? "" : "?"));
    }))));
  $("celltable").replaceChildren(table);
}

async function loadCells() {
  try { cells = (await api("/api/chart/cells?players=4")).cells; } catch (e) {
    $("celltable").replaceChildren(el("p", { class: "note" }, `No chart here: ${e.message}`));
    return;
  }
  drawCells();
}

// ------------------------------------------------------------------ the reports
async function openReport(root, path) {
  showError($("error"), null);
  try {
    const r = await api(`/api/report?root=${encodeURIComponent(root)}&path=${encodeURIComponent(path)}`);
    const art = $("report");
    art.innerHTML = r.html;   // rendered and escaped by the server (whist_sim/interfaces/web/reports.py)
    art.prepend(el("p", { class: "note" }, `${root}/${path}`));
    // wide tables scroll inside their box; a chart opens full size on a tap (to zoom on a phone)
    art.querySelectorAll("table").forEach((t) => { const box = el("div", { class: "scrollx" }); t.replaceWith(box); box.appendChild(t); });
    art.querySelectorAll("img").forEach((img) => {
      if (img.closest("a")) return;
      const a = el("a", { href: img.getAttribute("src"), class: "zoom", title: "open the chart full size" });
      img.replaceWith(a); a.appendChild(img);
    });
    art.querySelectorAll("a[href^='/charts#']").forEach((a) => a.addEventListener("click", () => setTimeout(route, 0)));
    art.scrollIntoView();
  } catch (e) { showError($("error"), e); }
}

function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  const i = h.indexOf("/");
  if (i > 0) openReport(h.slice(0, i), h.slice(i + 1));
}

async function init() {
  picker = cardPicker($("picker"), () => { $("hand").value = picker.text(); countText(); });
  $("clear").onclick = () => { picker.clear(); $("hand").value = ""; countText(); };
  $("hand").addEventListener("input", () => { picker.fromText($("hand").value); countText(); });
  $("chartform").addEventListener("submit", lookupHand);
  loadCells();
  let data;
  try { data = await api("/api/reports"); } catch (e) { showError($("error"), e); return; }
  const list = $("list");
  list.replaceChildren();
  if (!data.reports.length) list.appendChild(el("p", { class: "note" }, "No reports found: run make results, or serve --reports DIR."));
  let root = null;
  for (const r of data.reports) {
    if (r.root !== root) { root = r.root; list.appendChild(el("h3", {}, root)); }
    list.appendChild(el("a", { href: `#${r.root}/${r.path}`, "data-path": r.path, title: r.path }, `${r.path.replace(/\/?(report|README)\.md$/, "") || r.path}: ${r.title}`));
  }
  window.addEventListener("hashchange", route);
  if (location.hash) route();
}
init();

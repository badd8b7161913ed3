// The play page: one seat against the bots through /api/play (whist_sim/engine/table.py Table).
"use strict";
const $ = (id) => document.getElementById(id);
let t = null;                 // the table's view, as the server sends it
const chosen = new Set();     // Frisch: the cards chosen to pass
const PHASE_VERB = { auction: "your call", frisch: "choose three cards to pass", contracts: "your contract", play: "your card" };

function seatSpecs() {
  const p = Number($("players").value), box = $("seatspecs");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let s = 0; s < p; s++) {
    box.appendChild(el("label", {}, `seat ${s} `, el("input", { type: "text", id: "spec" + s, value: old[s] || "heuristic/expert", style: "width:10em" })));
  }
  $("seat").max = p - 1;
}

async function newGame(ev) {
  ev.preventDefault();
  showError($("error"), null);
  const p = Number($("players").value);
  const body = { players: p, seat: Number($("seat").value), seed: Number($("seed").value),
                 seats: [...Array(p).keys()].map((s) => $("spec" + s).value) };
  try { t = await api("/api/play", body); } catch (e) { showError($("error"), e); return; }
  $("game").classList.remove("hidden");
  render();
}

async function send(path, body) {
  showError($("refused"), null);
  try { t = await api(`/api/play/${t.id}/${path}`, body || {}); render(); }
  catch (e) { showError($("refused"), e); }
}

function seatName(s) { return s === t.seat ? "you" : `seat ${s}`; }

function render() {
  const p = t.players;
  chosen.clear();
  // the felt: you at the bottom, the others clockwise (to your left first)
  const felt = $("felt");
  felt.replaceChildren();
  const spots = p === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
  for (let k = 0; k < p; k++) {
    const s = (t.seat + k) % p;
    const c = t.contracts[s];
    felt.appendChild(el("div", { class: `seat pos-${spots[k]}` + (t.to_move === s ? " tomove" : "") },
      el("b", {}, seatName(s) + (s === t.dealer ? " (dealer)" : "") + (s === t.declarer ? " · declarer" : "")),
      el("div", {}, `${t.seats[s]}`),
      el("div", {}, `contract ${c === null ? "–" : c}, tricks ${t.tricks_taken[s]}`)));
  }
  const center = el("div", { class: "center", id: "trick" });
  const shown = t.current_trick.length ? t.current_trick : (t.tricks.length && t.phase !== "play" ? t.tricks[t.tricks.length - 1].cards : t.tricks.length ? t.tricks[t.tricks.length - 1].cards : []);
  center.appendChild(el("div", {}, t.trump ? `trump ${t.trump}, ${seatName(t.declarer)} declared at ${t.level}` :
    (t.phase === "auction" ? `auction, minimum ${t.min_level}` : t.phase)));
  for (const c of shown) center.appendChild(el("span", { title: seatName(c.seat) }, cardEl(c), el("small", {}, seatName(c.seat))));
  felt.appendChild(center);
  // status
  let status;
  if (t.over) {
    status = t.phase === "thrown_in" ? "The deal was thrown in: no score." :
      `Deal over: you bid ${t.contracts[t.seat]}, took ${t.tricks_taken[t.seat]}, score ${t.scores[t.seat]}.`;
    if (t.game_over) status += ` Game over: ${t.winners.map(seatName).join(" and ")} won.`;
  } else status = t.waiting ? PHASE_VERB[t.phase] : `waiting for ${seatName(t.to_move)}`;
  if (t.forbidden !== null) status += ` (you bid last: not ${t.forbidden})`;
  $("status").textContent = `Deal ${t.deal + 1}: ` + status;
  // your hand
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("free", t.phase !== "play");  // outside the play every card shows plainly
  for (const c of t.hand) {
    const e = cardEl(c, c.legal ? "legal" : "");
    e.addEventListener("click", () => clickCard(c, e));
    hand.appendChild(e);
  }
  // calls and contracts
  const choices = $("choices");
  choices.replaceChildren();
  if (t.waiting && t.legal.length) {
    for (const m of t.legal) choices.appendChild(el("button", { type: "button", "data-move": m.text, onclick: () => send("move", { move: m.text }) }, m.text));
  }
  $("frischgo").classList.toggle("hidden", !(t.phase === "frisch" && t.waiting));
  $("hint").disabled = !t.waiting;
  $("record").classList.toggle("hidden", !t.over);
  $("record").href = `/api/play/${t.id}/record`;
  $("next").classList.toggle("hidden", !t.over || t.game_over);
  // totals and history
  $("totals").replaceChildren(el("table", { class: "data", id: "totaltable" },
    el("tr", {}, el("th", {}, "deal"), [...Array(p).keys()].map((s) => el("th", {}, seatName(s)))),
    t.results.map((r) => el("tr", {}, el("td", {}, r.deal + 1), r.scores.map((x) => el("td", {}, x)))),
    el("tr", { class: "best" }, el("td", {}, "total"), t.totals.map((x) => el("td", {}, x)))),
    el("div", { class: "note" }, `game to ${t.target}`));
  const log = $("history");
  log.replaceChildren(...t.history.map((line) => el("div", {}, line)),
    el("hr"), ...t.events.map((e) => el("div", { class: "note" }, `${seatName(e.seat)}: ${e.text}`)));
}

function clickCard(c, e) {
  if (!t.waiting) { showError($("refused"), "it is not your turn"); return; }
  if (t.phase === "frisch") {
    if (chosen.has(c.text)) chosen.delete(c.text); else chosen.add(c.text);
    e.classList.toggle("chosen", chosen.has(c.text));
    return;
  }
  if (t.phase !== "play") { showError($("refused"), "choose a call or a contract first"); return; }
  // an illegal card goes to the server too: it refuses with the rule's reason
  send("move", { move: c.text });
}

async function hint() {
  $("hinttext").textContent = "thinking…";
  try {
    const h = await api(`/api/play/${t.id}/hint`, {});
    let text = `${h.strategy} would ${t.phase === "play" ? "play" : t.phase === "frisch" ? "pass" : "say"} ${h.text}: ${h.why.join("; ")}`;
    if (h.advice) text += `. The advisor (${h.advice.deals} sampled deals, play ${h.advice.play}): bid ${h.advice.recommended}, expected score ${h.advice.ev[h.advice.recommended]} points`;
    $("hinttext").textContent = text;
  } catch (e) { $("hinttext").textContent = ""; showError($("refused"), e); }
}

$("players").addEventListener("change", seatSpecs);
$("setup").addEventListener("submit", newGame);
$("hint").onclick = hint;
$("frischgo").onclick = () => send("move", { move: [...chosen].join(" ") });
$("next").onclick = () => { $("hinttext").textContent = ""; send("next"); };
seatSpecs();

// The play page: one seat against the bots through /api/play (whist_sim/interfaces/web/tables.py GameTable).
// The table's id is in the address (?table=ID), so a reload resumes the game; every move carries
// the table's move number (seq), so a repeated tap is refused by the server and changes nothing.
"use strict";
const $ = (id) => document.getElementById(id);
let info = null;              // GET /api/info
let t = null;                 // the table's view, as the server sends it
let busy = false;             // a request or an animation is under way: the controls wait
let bidLevel = null;          // the auction's level chosen in the bidding box
let showLast = false;         // the last trick shown on demand
let skipWait = null;          // ends the pause of an animation (a tap, a key)
let lostFocus = null;         // the focused control that a drawing removed, with no neighbour
let armed = null;             // tap twice to play: the data-key of the control tapped once
let retryTimer = null;        // the connection is lost: the banner's next try
const chosen = new Set();     // Frisch: the cards chosen to pass
const pending = new Set();    // AbortControllers of the requests under way (aborted on leaving)
const SPEEDS = { normal: [650, 1800], fast: [120, 450], off: [0, 0] };  // ms per bot move, trick pause
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const SUIT_ORDER = [3, 2, 0, 1];  // the hand's suits left to right: black and red in turn
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const PHASE_VERB = { auction: "Your call", frisch: "Choose three cards to pass", contracts: "Your contract", play: "Your card" };

// ------------------------------------------------------------------ names
function spot(s) { return (s - t.seat + t.players) % t.players; }  // 0 you, 1 your left, ...
function seatName(s) {
  if (s === t.seat) return "You";
  const k = spot(s);
  return t.players === 4 ? ["You", "Left", "Across", "Right"][k] : ["You", "Left", "Right"][k];
}
function posClass(s) {
  const k = spot(s);
  return t.players === 4 ? ["bottom", "left", "top", "right"][k] : ["bottom", "left", "right"][k];
}
function rankText(r) { return r === "T" ? "10" : r; }
function cardFace(c) {  // a card drawn with CSS: its rank, its suit symbol under it
  return [el("span", { class: "rank" + (c.rank === "T" ? " ten" : "") }, rankText(c.rank)), el("span", { class: "suit" }, c.symbol)];
}
function cardName(c) { return `${RANK_NAMES[c.rank] || c.rank} of ${SUIT_NAMES[c.suit]}`; }
function callName(text) {  // "6S" -> "6♠", "pass" -> "pass"
  const m = /^(\d+)(NT|[CDHS])$/.exec(text);
  return m ? m[1] + (m[2] === "NT" ? " NT" : SUIT_SYMBOLS[SUIT_LETTERS.indexOf(m[2])]) : text;
}
function strainText(s) { return s === "NT" ? "NT" : SUIT_SYMBOLS[SUIT_LETTERS.indexOf(s)]; }

// ------------------------------------------------------------------ requests
async function call(path, body, method) {
  // the JSON API; an error keeps its status and body (a 409 carries the table's view)
  const ctl = new AbortController();
  pending.add(ctl);
  const opts = { method: method || (body === undefined ? "GET" : "POST"), headers: {}, signal: ctl.signal };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const started = Date.now();
  const watch = setInterval(() => waitNote(started), 1000);
  try {
    let r;
    try { r = await fetch(path, opts); } catch (e) {
      if (e.name === "AbortError") throw e;
      const err = new Error("the connection to the server is lost"); err.lost = true; throw err;
    }
    let data;
    try { data = await r.json(); } catch (e) {
      if (r.status >= 502) { const err = new Error("the server does not answer"); err.lost = true; throw err; }
      data = { error: "the server's answer is not JSON" };
    }
    if (!r.ok) { const err = new Error(data.error || ("HTTP " + r.status)); err.status = r.status; err.data = data; throw err; }
    return data;
  } finally {
    clearInterval(watch);
    pending.delete(ctl);
    $("waiting").classList.add("hidden");
  }
}

async function waitNote(started) {
  // a request that takes a while says why: the engine starting (with how long so far) or the bots
  const s = Math.round((Date.now() - started) / 1000);
  const starting = await engineStarting("play");
  if (!pending.size) return;
  const box = $("waiting");
  box.textContent = starting || `Waiting for the table: ${s} s…`;
  box.classList.remove("hidden");
}

function setBusy(on) {
  busy = on;
  document.body.dataset.busy = on ? "1" : "0";
  // aria-disabled, not disabled: a disabled button would drop the keyboard focus
  document.querySelectorAll("#game button, #start").forEach((b) => {
    if (on) b.setAttribute("aria-disabled", "true");
    else if (!b.dataset.off) b.removeAttribute("aria-disabled");
  });
}

function announce(text) {
  const box = $("announce");
  box.textContent = "";
  setTimeout(() => { box.textContent = text; }, 30);
}

// ------------------------------------------------------------------ set-up
function buildSetup() {
  const box = $("levels");
  const names = Object.keys(info.opponent_levels);
  names.forEach((name, i) => {
    box.appendChild(el("label", { class: "level" },
      el("input", { type: "radio", name: "level", value: name, checked: i === 1 ? true : null,
                    onchange: levelDetails }), " " + name));
  });
  buildRuleInputs($("rules"), info, ["players"]);
  $("speed").value = localStorage.getItem("whist-anim") || "normal";
  $("speed").addEventListener("change", () => localStorage.setItem("whist-anim", $("speed").value));
  seatOptions();
  levelDetails();
}

function chosenLevel() { const r = document.querySelector("#levels input:checked"); return r ? r.value : null; }

function levelDetails() {
  const spec = info.opponent_levels[chosenLevel()] || "";
  const [bid, play] = spec.split("/");
  $("leveldetails").textContent = `Every bot bids ${bid} and plays ${play} (spec ${spec}).`;
}

function seatOptions() {
  const p = Number($("players").value), old = Number($("seat").value || 0);
  $("seat").replaceChildren(...[...Array(p).keys()].map((s) => el("option", { value: s, selected: s === Math.min(old, p - 1) }, `seat ${s}`)));
  const box = $("seatspecs");
  const was = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren(...[...Array(p).keys()].map((s) => el("label", {}, `seat ${s} `,
    el("input", { type: "text", id: "spec" + s, value: was[s] || "", placeholder: "the level's", size: 18 }))));
}

async function newGame(ev) {
  ev.preventDefault();
  if (busy) return;
  showError($("error"), null);
  const p = Number($("players").value);
  const typed = $("seed").value.trim();
  if (typed !== "" && !/^\d+$/.test(typed)) { showError($("error"), "seed: a whole number ≥ 0, or empty for a random one"); return; }
  const seed = typed !== "" ? Number(typed) : crypto.getRandomValues(new Uint32Array(1))[0];
  const body = { players: p, seat: Number($("seat").value), seed, ...changedRules(info) };
  const specs = [...Array(p).keys()].map((s) => $("spec" + s).value.trim());
  if (specs.some((x) => x)) {
    const lv = info.opponent_levels[chosenLevel()];
    body.seats = specs.map((x) => x || lv);
  } else body.level = chosenLevel();
  setBusy(true);
  $("start").textContent = "Dealing…";
  try {
    t = await call("/api/play", body);
  } catch (e) { if (e.name !== "AbortError") showError($("error"), e); setBusy(false); return; }
  finally { $("start").textContent = "Deal"; }
  history.pushState(null, "", `/play?table=${t.id}`);
  startTable();
  setBusy(false);
  announce(`New game, seed ${t.seed}. ${statusText()}`);
  const first = document.querySelector("#choices button:not([aria-disabled])") || document.querySelector("#hand .card.legal, #hand .card");
  if (first) first.focus();
}

function startTable() {
  $("setupbox").open = false;
  $("setupsummary").textContent = "New game";
  $("game").classList.remove("hidden");
  showLast = false;
  bidLevel = null;
  render();
}

async function resume() {
  // the table of the address: a reload (or a link) comes back to the game as it stands
  const id = new URLSearchParams(location.search).get("table");
  if (!id) return;
  setBusy(true);
  try {
    t = await call(`/api/play/${encodeURIComponent(id)}`);
    startTable();
    announce(statusText());
  } catch (e) {
    if (e.lost && t === null) { t = { id }; connectionLost(); setBusy(false); return; }
    if (e.name !== "AbortError") showError($("error"), `This table cannot be resumed: ${e.message}`);
    $("setupbox").open = true;
  }
  setBusy(false);
}

// ------------------------------------------------------------------ moves
async function send(path, body) {
  if (busy || !t) return;
  showError($("refused"), null);
  $("hinttext").classList.add("hidden");
  setBusy(true);
  try {
    t = await call(`/api/play/${t.id}/${path}`, { ...(body || {}), seq: t.seq });
    armed = null;
    chosen.clear();
    bidLevel = null;
    showLast = false;
    await animate(t);
  } catch (e) {
    if (e.name === "AbortError") return;
    if (e.lost) { connectionLost(); return; }
    if (e.status === 409 && e.data && e.data.view) {  // a repeated tap: the table as it stands
      t = e.data.view;
      render();
      announce("That move was already made; nothing changed. " + statusText());
    } else {
      const words = refusalWords(e.message);
      showError($("refused"), words);
      announce(words);
    }
    return;
  } finally {
    setBusy(false);
  }
  announce(eventsText(t.events) + statusText());
}

// ------------------------------------------------------------------ refusals and the connection
function refusalWords(text) {
  // a refusal of the server, in a card player's words ("You must follow spades.")
  const m = String(text || "").replace(/^move: /, "").replace(/^refused, /, "");
  let x;
  if ((x = /must follow (\w+)/.exec(m))) return `You must follow ${x[1]}.`;
  if (/not in seat \d+'s hand/.test(m)) return "That card is not in your hand.";
  if ((x = /below his auction level (\d+)/.exec(m))) return `You declared at ${x[1]}: your contract must be at least ${x[1]}.`;
  if ((x = /bids last and may not make the contracts sum to (\d+)/.exec(m))) return `You bid last: your contract may not make the contracts add up to ${x[1]}.`;
  if (/not your turn|to move|waits for/.test(m)) return "It is not your turn yet.";
  if (/^the deal is not over/.test(m)) return "The deal is not over yet.";
  if (/^the game is over/.test(m)) return "The game is over: start a new one.";
  const plain = m.replace(/\s*\(holds [^)]*\)/, "").replace(/\bseat \d+\b/, "you");
  return plain.charAt(0).toUpperCase() + plain.slice(1) + (/[.!?]$/.test(plain) ? "" : ".");
}

function connectionLost() {
  // the server does not answer: say that the game is kept, and try again until it answers
  const saved = info && info.tables_on_disk
    ? "Your game is saved on the server: nothing is lost, and it goes on from where it stands."
    : "The server keeps your game while it runs.";
  let wait = 5;
  const tick = () => {
    $("losttext").textContent = `No connection to the server. ${saved} Trying again in ${wait} s…`;
    if (wait-- <= 0) { reconnect(); return; }
    retryTimer = setTimeout(tick, 1000);
  };
  clearTimeout(retryTimer);
  $("lost").classList.remove("hidden");
  announceOnce("No connection to the server. " + saved);
  tick();
}

let lostSaid = false;
function announceOnce(text) { if (!lostSaid) { lostSaid = true; announce(text); } }

async function reconnect() {
  clearTimeout(retryTimer);
  if (!t) { location.reload(); return; }
  $("losttext").textContent = "No connection to the server. Trying again now…";
  const before = t.seq;
  try {
    const view = await call(`/api/play/${t.id}`);
    t = view;
  } catch (e) {
    if (e.name === "AbortError") return;
    if (e.lost) { connectionLost(); return; }
    $("losttext").textContent = `The server answers, but not with this table: ${e.message}`;
    return;
  }
  lostSaid = false;
  $("lost").classList.add("hidden");
  armed = null;
  if ($("game").classList.contains("hidden")) startTable(); else render();
  announce("Connected again. " + (t.seq !== before ? "Your move was made. " : "") + statusText());
}

function sleep(ms) {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const id = setTimeout(done, ms);
    function done() { clearTimeout(id); skipWait = null; resolve(); }
    skipWait = done;
  });
}

async function animate(after) {
  // the moves of the answer one by one: each bot card in front of its player, each finished
  // trick with its winner marked for a pause (a tap or a key ends it), each call in a bubble
  const [step, pause] = SPEEDS[$("speed").value] || SPEEDS.normal;
  const events = after.events || [];
  if (!events.length || (step === 0 && pause === 0)) { render(); return; }
  // where the deal stood before these moves, from the answer itself
  const taken = [...after.tricks_taken], contracts = [...after.contracts];
  for (const e of events) {
    if (e.won_by !== null && e.won_by !== undefined) taken[e.won_by] -= 1;
    if (e.phase === "contracts") contracts[e.seat] = null;
  }
  const firstPlay = events.find((e) => e.phase === "play");
  let trick = [];
  if (firstPlay) {
    const k = firstPlay.trick;
    const cards = k < after.tricks.length ? after.tricks[k].cards : after.current_trick;
    const mine = events.filter((e) => e.phase === "play" && e.trick === k).length;
    trick = cards.slice(0, cards.length - mine);
  }
  const bubbles = {};
  for (const [i, e] of events.entries()) {
    const mineNow = e.seat === after.seat && i === 0;
    if (e.phase === "play") {
      trick.push({ seat: e.seat, ...e.card });
      render({ trick, winner: null, taken, contracts, bubbles, toMove: e.won_by === null ? nextSeat(e.seat) : null });
      if (!mineNow) await sleep(step);
      if (e.won_by !== null) {
        taken[e.won_by] += 1;
        render({ trick, winner: e.won_by, taken, contracts, bubbles, toMove: null });
        await sleep(pause);
        trick = [];
      }
    } else {
      if (e.phase === "contracts") contracts[e.seat] = Number(e.text.replace("contract ", ""));
      bubbles[e.seat] = e.phase === "frisch" ? "passed 3" : e.phase === "contracts" ? `bid ${contracts[e.seat]}` : callName(e.text);
      render({ trick, winner: null, taken, contracts, bubbles, toMove: nextSeat(e.seat) });
      if (!mineNow) await sleep(step);
    }
  }
  render();
}

function nextSeat(s) { return (s + 1) % t.players; }

function callSpoken(text) {  // "6S" -> "6 spades", "6NT" -> "6 no trump"
  const m = /^(\d+)(NT|[CDHS])$/.exec(text);
  return m ? `${m[1]} ${m[2] === "NT" ? "no trump" : SUIT_NAMES[SUIT_LETTERS.indexOf(m[2])]}` : text;
}

function eventsText(events) {
  // the moves of the answer for the live region: every bot's move, who won each trick (your
  // own tricks too), each contract, the auction's winner and the sum of the contracts
  const parts = [];
  const list = events || [];
  for (const [i, e] of list.entries()) {
    const mine = i === 0 && e.seat === t.seat, who = seatName(e.seat);
    if (e.phase === "play") {
      if (!mine) parts.push(`${who} played the ${cardName(e.card)}.`);
      if (e.won_by !== null && e.won_by !== undefined) parts.push(`${seatName(e.won_by)} won the trick.`);
    } else if (e.phase === "contracts") {
      const n = e.text.replace("contract ", "");
      parts.push(mine ? `Your contract: ${n}.` : `${who} bids ${n}.`);
    } else if (e.phase === "auction") {
      if (!mine) parts.push(`${who}: ${callSpoken(e.text)}.`);
    } else if (!mine) parts.push(`${who} passed three cards.`);
  }
  if (t.trump && list.some((e) => e.phase === "auction")) {
    parts.push(`${seatName(t.declarer)} declared ${t.level}, trump ${t.trump === "NT" ? "no trump" : SUIT_NAMES[SUIT_LETTERS.indexOf(t.trump)]}.`);
  }
  if (list.some((e) => e.phase === "contracts") && t.contracts.every((c) => c !== null)) {
    const sum = t.contracts.reduce((x, y) => x + y, 0);
    parts.push(`Contracts ${sum} of ${t.n_tricks}: ${sum > t.n_tricks ? `over by ${sum - t.n_tricks}` : sum < t.n_tricks ? `under by ${t.n_tricks - sum}` : "even"}.`);
  }
  return parts.length ? parts.join(" ") + " " : "";
}

function clickCard(c) {
  if (busy) return;
  if (!t.waiting) { showError($("refused"), "it is not your turn"); return; }
  if (t.phase === "frisch") {
    if (chosen.has(c.text)) chosen.delete(c.text);
    else if (chosen.size < 3) chosen.add(c.text);
    render();
    announce(`${cardName(c)} ${chosen.has(c.text) ? "chosen" : "not chosen"}; ${chosen.size} of 3 chosen.`);
    return;
  }
  if (t.phase !== "play") { showError($("refused"), "Choose a call or a contract first."); return; }
  // a card that may not be played goes to the server at once: it refuses with the rule's
  // reason, in words, and nothing changes
  if (!c.legal) { armed = null; send("move", { move: c.text }); return; }
  tapMove("card:" + c.text, c.text, `the ${cardName(c)}`, "play it");
}

function tapTwice() { return $("taptwice").checked; }

function tapMove(key, move, label, verb) {
  // a move: at once, or with "tap twice to play" on, the first tap picks it and the second
  // (on the same control) plays it; a tap on another control picks that one instead
  if (busy) return;
  if (tapTwice() && armed !== key) {
    armed = key;
    armedText = `Tap ${label} again to ${verb}.`;
    showError($("refused"), null);
    render();
    announce(armedText);
    return;
  }
  armed = null;
  send("move", { move });
}
let armedText = "";

async function hint() {
  if (busy || !t.waiting) return;
  const box = $("hinttext");
  box.textContent = "Thinking…";
  box.classList.remove("hidden");
  setBusy(true);
  try {
    const h = await call(`/api/play/${t.id}/hint`, {});
    const verb = t.phase === "play" ? "play" : t.phase === "frisch" ? "pass" : "say";
    let text = `${h.strategy} would ${verb} ${h.text}: ${h.why.join("; ")}.`;
    if (h.advice) text += ` The advisor (${h.advice.deals} sampled deals, play ${h.advice.play}): bid ${h.advice.recommended}, expected score ${h.advice.ev[h.advice.recommended]} points.`;
    box.textContent = text;
  } catch (e) {
    if (e.name !== "AbortError") { box.classList.add("hidden"); if (e.lost) connectionLost(); else showError($("refused"), refusalWords(e.message)); }
  } finally { setBusy(false); }
}

// ------------------------------------------------------------------ drawing
function statusText() {
  if (!t) return "";
  let status;
  if (t.over) {
    status = t.phase === "thrown_in" ? "The deal was thrown in: no score." :
      `Deal over: you bid ${t.contracts[t.seat]}, took ${t.tricks_taken[t.seat]}, ${signed(t.scores[t.seat])} points.`;
    if (t.game_over) status += ` Game over: ${t.winners.map(seatName).join(" and ")} won.`;
  } else if (t.waiting) {
    status = PHASE_VERB[t.phase];
    if (t.phase === "frisch") status = `Frisch ${t.frisch_number}: choose three cards to pass to ${frischTo()}`;
    if (t.phase === "auction") status += ` (lowest bid ${t.min_level})`;
    const f = t.forbidden;
    if (f !== null && f >= 0 && f <= t.n_tricks) status += `: you bid last, and ${f} would make the contracts add up to ${t.n_tricks}`;
  } else status = `${seatName(t.to_move)} to move`;
  return status + (t.waiting || t.over ? "" : "…");
}

function frischTo() {
  const d = t.rules.frisch_directions[(t.frisch_number - 1) % t.rules.frisch_directions.length];
  return t.players === 4 ? { left: "Left", across: "Across", right: "Right" }[d] : { left: "Left", right: "Right", across: "Left" }[d];
}

function signed(x) { return x > 0 ? "+" + x : String(x); }

function render(anim) {
  // the whole table from `t`; `anim` (while the bots' moves are shown) overrides the trick,
  // the tricks taken, the contracts, the calls shown and the seat to move
  const focused = document.activeElement;
  let key = focused && focused.dataset ? focused.dataset.key || null : null;
  if (!key && lostFocus && (!focused || focused === document.body)) key = lostFocus;
  const keyIndex = [...document.querySelectorAll("#hand .card")].indexOf(focused);
  const p = t.players, a = anim || null;
  const taken = a ? a.taken : t.tricks_taken, contracts = a ? a.contracts : t.contracts;
  const toMove = a ? a.toMove : t.to_move;
  // the line above the table: deal, seed, trump and declarer, over/under
  const sum = contracts.every((c) => c !== null) ? contracts.reduce((x, y) => x + y, 0) : null;
  const bits = [`Deal ${t.deal + 1}${t.redeals ? ` (dealt again ×${t.redeals})` : ""}`, `seed ${t.seed}`];
  if (t.trump) bits.push(`trump ${strainText(t.trump)} · ${seatName(t.declarer)} declared ${t.level}`);
  else if (t.phase === "auction") bits.push(`auction, lowest bid ${t.min_level}`);
  if (sum !== null) bits.push(`contracts ${sum} of ${t.n_tricks}: ` + (sum > t.n_tricks ? `over by ${sum - t.n_tricks}` : sum < t.n_tricks ? `under by ${t.n_tricks - sum}` : "even"));
  $("dealinfo").replaceChildren(...bits.map((b, i) => el("span", { class: i === bits.length - 1 && sum !== null ? "sum" : "" }, b)));
  // the felt: you at the bottom, the others clockwise (to your left first)
  const felt = $("felt");
  felt.replaceChildren();
  felt.classList.toggle("three", p === 3);
  const lastCall = {};
  for (const c of t.calls.slice(t.calls.length - t.auction_calls)) lastCall[c.seat] = callName(c.text);
  for (let s = 0; s < p; s++) {
    const c = contracts[s];
    const tags = [];
    if (s === t.dealer) tags.push(el("span", { class: "tag", title: "dealer" }, "D"));
    if (s === t.declarer) tags.push(el("span", { class: "tag decl", title: "declarer" }, `${t.level}${strainText(t.trump)}`));
    if (!a && t.leader === s && t.phase === "play") tags.push(el("span", { class: "tag lead", title: "led this trick" }, "lead"));
    let line;
    if (c !== null && c !== undefined) {
      const need = c - taken[s];
      const state = c === 0 ? (taken[s] ? "zero broken" : "wants none") : need > 0 ? `needs ${need}` : need === 0 ? "made" : `over by ${-need}`;
      line = [`bid ${c}`, `won ${taken[s]}`, state].map((x) => x.replaceAll(" ", "\u00a0")).join(" · ");  // broken between the parts only
    } else if (t.phase === "auction" || t.phase === "frisch") {
      line = !a && s in lastCall ? `said ${lastCall[s]}` : "–";  // while playing back: the bubbles
    }
    else line = `bid – · won ${taken[s]}`;
    const bubble = a && a.bubbles[s] ? el("div", { class: "bubble" }, a.bubbles[s]) : null;
    const score = t.scores && !a ? el("div", { class: "score" }, `${signed(t.scores[s])} points`) : null;
    const moving = toMove === s && !t.over;
    felt.appendChild(el("div", { class: `seat pos-${posClass(s)}` + (moving ? " tomove" : ""), "data-seat": s },
      el("div", { class: "name" }, el("span", { class: "who" }, seatName(s)), " ", el("small", {}, `seat\u00a0${s}`), ...tags, moving ? el("span", { class: "tag move" }, "to\u00a0move") : null),
      el("div", { class: "line" }, line), bubble, score));
  }
  // the trick in the middle, each card in front of its player
  let cards = a ? a.trick : t.current_trick, winner = a ? a.winner : null, label = null;
  if ((showLast || (t.over && t.phase === "scored")) && !a && t.tricks.length) {  // at the end: the last trick
    const last = t.tricks[t.tricks.length - 1];
    cards = last.cards; winner = last.winner; label = `Last trick (${t.tricks.length}): ${seatName(last.winner)} won`;
  }
  const center = el("div", { class: "trick" + (winner !== null ? " done" : ""), id: "trick", "aria-label": "the trick" });
  for (const c of cards) {
    center.appendChild(el("div", { class: `slot at-${posClass(c.seat)}` + (winner === c.seat ? " winner" : "") },
      el("span", { class: `card small s${c.suit}`, role: "img", "aria-label": `${seatName(c.seat)}: ${cardName(c)}` + (winner === c.seat ? ", won the trick" : "") }, cardFace(c))));
  }
  if (winner !== null) center.appendChild(el("div", { class: "trickwin" }, label || `${seatName(winner)} won the trick`));
  else if (!cards.length && t.phase === "play" && t.waiting) center.appendChild(el("div", { class: "trickwin quiet" }, "your lead"));
  felt.appendChild(center);
  $("status").textContent = !a && armed ? armedText : !a ? statusText() : a.winner !== null ? `${seatName(a.winner)} won the trick` :
    a.toMove !== null && a.toMove !== undefined ? `${seatName(a.toMove)} to move…` : "…";
  // your hand: a button per card
  const hand = $("hand");
  const legalPhase = !a && t.phase === "play" && t.waiting;
  // suits in alternating colours (♠ ♥ ♣ ♦), high cards first, a gap between suits
  const held = [...t.hand].sort((x, y) => SUIT_ORDER.indexOf(x.suit) - SUIT_ORDER.indexOf(y.suit));
  hand.replaceChildren(...held.map((c, i) => {
    const cls = ["card", "s" + c.suit];
    if (i > 0 && held[i - 1].suit !== c.suit) cls.push("newsuit");
    if (legalPhase) cls.push(c.legal ? "legal" : "dim");
    if (chosen.has(c.text)) cls.push("chosen");
    if (armed === "card:" + c.text && legalPhase) cls.push("armed");
    if (c.received) cls.push("received");
    let label = cardName(c);
    if (c.received) label += `, received in Frisch ${c.received}`;
    if (legalPhase && !c.legal) label += ", may not be played now";
    if (chosen.has(c.text)) label += ", chosen to pass";
    if (armed === "card:" + c.text && legalPhase) label += ", picked: press again to play it";
    return el("button", { type: "button", class: cls.join(" "), "data-card": c.text, "data-key": "card:" + c.text,
                          "aria-label": label, "aria-pressed": t.phase === "frisch" ? String(chosen.has(c.text)) : null,
                          onclick: () => clickCard(c) },
      cardFace(c),
      c.received ? el("span", { class: "got", "aria-hidden": "true" }, "F" + c.received) : null);
  }));
  // your choices: the bidding box, the contracts, the Frisch pass
  const choices = $("choices");
  choices.replaceChildren();
  choices.className = "choices";
  if (!a && t.waiting && t.phase === "auction") biddingBox(choices);
  else if (!a && t.waiting && t.phase === "contracts") {
    choices.classList.add("contracts");
    for (const m of t.legal) choices.appendChild(el("button", { type: "button", "data-move": m.text, "data-key": "move:" + m.text,
      onclick: () => tapMove("move:" + m.text, m.text, `contract ${m.text}`, "bid it") }, m.text));
  } else if (!a && t.waiting && t.phase === "frisch") {
    const ok = chosen.size === 3;
    choices.appendChild(el("button", { type: "button", id: "frischgo", class: "primary wide", "data-key": "frischgo", "data-off": ok ? null : "1",
      "aria-disabled": ok ? null : "true", onclick: () => { if (chosen.size === 3) send("move", { move: [...chosen].join(" ") }); } },
      ok ? `Pass ${[...chosen].map((x) => rankText(x[0]) + SUIT_SYMBOLS[SUIT_LETTERS.indexOf(x[1])]).join(" ")} to ${frischTo()}` : `Pass three cards (${chosen.size} of 3 chosen)`));
  }
  // the buttons under the table
  offButton($("hint"), a || !t.waiting);
  offButton($("lastbtn"), a || !t.tricks.length || t.over);
  $("lastbtn").setAttribute("aria-pressed", String(showLast));
  $("lastbtn").textContent = showLast ? "Hide last trick" : "Last trick";
  $("record").classList.toggle("hidden", !t.over || !!a);
  $("record").href = `/api/play/${t.id}/record`;
  $("next").classList.toggle("hidden", !t.over || t.game_over || !!a);
  // totals and history
  $("totals").replaceChildren(el("table", { class: "data", id: "totaltable" },
    el("tr", {}, el("th", {}, "deal"), [...Array(p).keys()].map((s) => el("th", {}, seatName(s)))),
    t.results.map((r) => el("tr", {}, el("td", {}, r.deal + 1), r.scores.map((x) => el("td", {}, x)))),
    el("tr", { class: "best" }, el("td", {}, "total"), t.totals.map((x) => el("td", {}, x)))),
    el("div", { class: "note" }, `game to ${t.target}`));
  $("history").replaceChildren(el("div", { class: "note" }, `seats: ${[...Array(p).keys()].map((s) => `${s} ${seatName(s)} (${t.seats[s]})`).join(", ")}`),
    ...t.history.map((line) => el("div", {}, line)));
  document.body.dataset.seq = String(t.seq);
  for (const b of document.querySelectorAll("#choices button")) {
    const on = !a && armed !== null && b.dataset.key === armed;
    b.classList.toggle("armed", on);
    if (on) b.setAttribute("aria-label", (b.getAttribute("aria-label") || b.textContent) + ", picked: press again");
  }
  if (busy) setBusy(true);
  restoreFocus(key, keyIndex);
  rovingStops();
}

function offButton(b, off) {
  b.dataset.off = off ? "1" : "";
  if (off) b.setAttribute("aria-disabled", "true"); else if (!busy) b.removeAttribute("aria-disabled");
}

function biddingBox(box) {
  // pass, the levels with a legal bid, and the five strains of the chosen level
  const bids = t.legal.filter((m) => m.text !== "pass");
  const levels = [...new Set(bids.map((m) => Number(/^\d+/.exec(m.text)[0])))];
  if (bidLevel === null || !levels.includes(bidLevel)) bidLevel = levels.length ? levels[0] : null;
  const row1 = el("div", { class: "row", role: "group", "aria-label": "pass or a level" });
  if (t.legal.some((m) => m.text === "pass")) {
    row1.appendChild(el("button", { type: "button", class: "pass", "data-move": "pass", "data-key": "move:pass",
      onclick: () => tapMove("move:pass", "pass", "pass", "pass") }, "pass"));
  }
  for (const lv of levels) {
    row1.appendChild(el("button", { type: "button", class: "level" + (lv === bidLevel ? " on" : ""), "data-key": "level:" + lv,
      "aria-pressed": String(lv === bidLevel), "aria-label": `level ${lv}`,
      onclick: () => { if (!busy) { bidLevel = lv; armed = null; render(); } } }, String(lv)));
  }
  box.appendChild(row1);
  if (bidLevel === null) return;
  const row2 = el("div", { class: "row strains", role: "group", "aria-label": `bids at level ${bidLevel}` });
  for (const s of ["C", "D", "H", "S", "NT"]) {
    const text = `${bidLevel}${s}`, legal = bids.some((m) => m.text === text);
    const red = s === "D" || s === "H";
    row2.appendChild(el("button", { type: "button", class: "strain" + (red ? " red" : ""), "data-move": text, "data-key": "move:" + text,
      "data-off": legal ? null : "1", "aria-disabled": legal ? null : "true",
      "aria-label": `bid ${bidLevel} ${s === "NT" ? "no trump" : SUIT_NAMES[SUIT_LETTERS.indexOf(s)]}` + (legal ? "" : ", not allowed"),
      onclick: () => { if (legal) tapMove("move:" + text, text, `bid ${callName(text)}`, "bid it"); } }, callName(text)));
  }
  box.appendChild(row2);
}

function restoreFocus(key, index) {
  // the keyboard focus stays where it was: the same control, else its neighbour, else the
  // first thing to choose
  if (!key) return;
  let target = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (!target && key.startsWith("card:")) {
    const cards = [...document.querySelectorAll("#hand .card")];
    target = cards[Math.min(Math.max(index, 0), cards.length - 1)] || null;
  }
  if (!target && (key.startsWith("move:") || key.startsWith("level:") || key === "frischgo")) {
    target = document.querySelector("#choices button:not([aria-disabled]), #hand .card.legal, #hand .card");
  }
  if (!target) target = document.querySelector("#choices button, #hand .card.legal, #hand .card, #next:not(.hidden), #record:not(.hidden)");
  // nothing to hold it yet (the last card played, the bots still moving): kept for the next
  // drawing, so the focus does not fall back to the top of the page
  lostFocus = target ? null : key;
  if (target && document.activeElement !== target) target.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ keys and wiring
document.addEventListener("keydown", (ev) => {
  if (skipWait && ["Enter", " ", "Escape"].includes(ev.key)) { ev.preventDefault(); skipWait(); return; }
  // the arrows move along the cards of the hand and along the choices, Home and End to the
  // first and the last; Tab leaves the group (one tab stop each: the hand, the choices)
  const here = document.activeElement;
  const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  if (!here || !keys.includes(ev.key) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const group = here.closest("#hand, #choices");
  if (!group) return;
  const items = [...group.querySelectorAll("button")];
  const i = items.indexOf(here);
  if (i < 0) return;
  const j = ev.key === "Home" ? 0 : ev.key === "End" ? items.length - 1 :
    i + (ev.key === "ArrowRight" || ev.key === "ArrowDown" ? 1 : -1);
  ev.preventDefault();
  if (j >= 0 && j < items.length) items[j].focus();
});

function rovingStops() {
  // one tab stop per group: the focused control, else the one picked, else the first to choose
  for (const group of [$("hand"), $("choices")]) {
    const items = [...group.querySelectorAll("button")];
    if (!items.length) continue;
    const stop = items.find((b) => b === document.activeElement) || items.find((b) => b.classList.contains("armed")) ||
      items.find((b) => b.classList.contains("legal")) || items.find((b) => !b.dataset.off) || items[0];
    for (const b of items) b.tabIndex = b === stop ? 0 : -1;
  }
}
for (const id of ["hand", "choices"]) {
  $(id).addEventListener("focusin", (ev) => {
    if (!(ev.target instanceof HTMLButtonElement)) return;
    for (const b of $(id).querySelectorAll("button")) b.tabIndex = b === ev.target ? 0 : -1;
  });
}
$("felt").addEventListener("click", () => { if (skipWait) skipWait(); else if (showLast) { showLast = false; render(); } });
$("players").addEventListener("change", seatOptions);
$("retry").onclick = () => reconnect();
{
  // tap twice to play: on by default on a touch screen, kept in the browser
  const kept = localStorage.getItem("whist-tap-twice");
  const touch = window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
  $("taptwice").checked = kept === null ? touch : kept === "1";
  $("taptwice").addEventListener("change", () => {
    localStorage.setItem("whist-tap-twice", $("taptwice").checked ? "1" : "0");
    armed = null;
    if (t && t.hand) render();
  });
}
$("setup").addEventListener("submit", newGame);
$("hint").onclick = () => { if ($("hint").dataset.off !== "1") hint(); };
$("lastbtn").onclick = () => { if (busy || $("lastbtn").dataset.off === "1") return; showLast = !showLast; render(); };
$("next").onclick = () => { $("hinttext").classList.add("hidden"); send("next"); };
window.addEventListener("pagehide", () => { for (const c of pending) c.abort(); });
window.addEventListener("popstate", () => { if (new URLSearchParams(location.search).get("table")) resume(); });
(async () => {
  try { info = await api("/api/info"); } catch (e) { showError($("error"), e); return; }
  buildSetup();
  await resume();
})();

// The advisor page: a hand, the deal and the model in; the advice of POST /api/jobs out, first
// as a sentence, then its chart and tables.
"use strict";
let info = null, job = null, timer = null, shown = null, picker = null;
const keeper = progressKeeper();
const $ = (id) => document.getElementById(id);

function handChanged() {
  $("hand").value = picker.text();
  $("count").textContent = picker.picked.size ? `${picker.picked.size} cards` : "";
}

function request() {
  const body = { hand: $("hand").value.trim(), play: $("play").value, bid_policy: $("bid_policy").value,
                 infer: $("infer").checked };
  if ($("trump").value) body.trump = $("trump").value;
  for (const f of ["seat", "declarer", "level", "deals", "seed"]) {
    const v = $(f).value.trim();
    if (v !== "") body[f] = Number(v);
  }
  if ($("bids").value.trim()) body.bids = $("bids").value.trim();
  // constraints and known cards: items separated by spaces (as the command's repeated options)
  for (const f of ["constrain", "known"]) {
    const items = $(f).value.trim().split(/\s+/).filter((x) => x);
    if (items.length) body[f] = items;
  }
  const rules = changedRules(info);
  if (Object.keys(rules).length) body.rules = rules;
  return body;
}

function running(on) {
  $("running").classList.toggle("hidden", !on);
  $("go").disabled = on;
}

function clearResult() {
  // a new request or a cancel: the old answer goes, so it cannot be read as the new one's
  shown = null;
  $("result").classList.add("hidden");
  for (const id of ["sentence", "closecall", "verdict", "headline", "sure", "chart", "strains", "table", "tricks", "assumptions"]) $(id).replaceChildren();
}

async function start(ev) {
  ev.preventDefault();
  showError($("error"), null);
  clearResult();
  keeper.reset();
  $("bar").style.width = "0%";
  $("progtext").textContent = "Starting…";
  try {
    job = await api("/api/jobs", request());
  } catch (e) { showError($("error"), e); return; }
  running(true);
  poll();
}

async function poll() {
  clearTimeout(timer);
  if (!job) return;
  const mine = job;
  let now;
  try { now = await api("/api/jobs/" + mine.id); } catch (e) { showError($("error"), e); running(false); return; }
  if (job !== mine) return;  // cancelled or replaced meanwhile
  job = now;
  // the progress never goes backwards: the most deals seen so far
  const done = keeper.seen(job.done_deals, job.deals);
  $("bar").style.width = (100 * done / job.deals).toFixed(1) + "%";
  let text = `${done.toLocaleString()} of ${job.deals.toLocaleString()} deals`;
  if (job.state === "running" && done === 0) {
    const starting = await engineStarting("advice");  // the first advice waits on the compile
    if (job !== now) return;
    text = starting || "Dealing the first block of deals…";
  }
  $("progtext").textContent = text;
  if (job.state === "running") { timer = setTimeout(poll, done ? 250 : 1000); return; }
  running(false);
  if (job.state === "done") show(job.result);
  else if (job.state === "failed") showError($("error"), job.error);
  else showError($("error"), "Cancelled after " + done.toLocaleString() + " deals.");
}

// a page that is left cancels its running advice (the server stops it after its block of deals)
window.addEventListener("pagehide", () => {
  if (job && job.state === "running") navigator.sendBeacon(`/api/jobs/${job.id}/cancel`);
});

async function cancel() {
  if (!job) return;
  const id = job.id, done = keeper.seen(job.done_deals, job.deals);
  job = null;
  clearTimeout(timer);
  running(false);
  clearResult();
  showError($("error"), `Cancelled after ${done.toLocaleString()} deals.`);
  try { await api("/api/jobs/" + id, undefined, "DELETE"); } catch (e) { showError($("error"), e); }
}

function chart(bids, best, width) {
  // expected score per bid with its interval: a dot and a whisker per bid, zero line dashed;
  // drawn at the width of its box (at most 640 px), so that every bid shows on a phone
  const W = Math.max(280, Math.min(640, Math.floor(width || 640))), H = 240, L = 46, R = 8, T = 10, B = 30;
  const lo0 = Math.min(0, ...bids.map((b) => b.ev_ci ? b.ev_ci[0] : b.ev));
  const hi0 = Math.max(0, ...bids.map((b) => b.ev_ci ? b.ev_ci[1] : b.ev));
  // round ticks: a step of 1, 2 or 5 times a power of ten, about five of them
  const raw = (hi0 - lo0) / 5 || 1, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const tick = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const lo = Math.floor(lo0 / tick) * tick, hi = Math.ceil(hi0 / tick) * tick;
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1));
  const step = (W - L - R) / bids.length;
  const x = (i) => L + step * (i + 0.5);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("id", "evchart");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e); return e;
  };
  add("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" });
  for (let v = lo; v <= hi + tick / 2; v += tick) {
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#eee" });
    add("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, String(Math.round(v * 100) / 100));
  }
  add("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#888", "stroke-dasharray": "4 3" });
  bids.forEach((b, i) => {
    const color = b.bid === best ? "#2563eb" : "#444";
    if (b.ev_ci) {  // the interval: a whisker with caps
      add("line", { x1: x(i), x2: x(i), y1: y(b.ev_ci[0]), y2: y(b.ev_ci[1]), stroke: color, "stroke-width": 2 });
      for (const v of b.ev_ci) add("line", { x1: x(i) - 5, x2: x(i) + 5, y1: y(v), y2: y(v), stroke: color, "stroke-width": 1.5 });
    }
    add("circle", { cx: x(i), cy: y(b.ev), r: b.bid === best ? 6 : 4, fill: color, class: "bidpoint", "data-bid": b.bid });
    add("text", { x: x(i), y: H - B + 16, "text-anchor": "middle" }, String(b.bid));
  });
  add("text", { x: (L + W) / 2, y: H - 2, "text-anchor": "middle" }, "bid (tricks)");
  add("text", { x: 12, y: (T + H - B) / 2, transform: `rotate(-90 12 ${(T + H - B) / 2})`, "text-anchor": "middle" }, "expected score (points)");
  return svg;
}

function points(x) {  // a difference in points, as a player says it
  const v = Math.abs(x);
  return v < 2 ? v.toFixed(1) : String(Math.round(v));
}

function sentence(a) {
  // the answer in one sentence: "Bid 6 ♠: made 88 % of the time; 7 is 5 points worse."
  const best = a.recommended, row = a.bids.find((b) => b.bid === best);
  const made = `made ${Math.round(100 * row.p_make)}\u00a0% of the time`;
  let strain = a.trump, head;
  if (a.mode === "contract") head = `Bid ${best}\u00a0${strainSymbol(strain)}`;
  else if (a.best_call && a.best_call !== "pass") {
    strain = a.best_call.replace(/^\d+/, "");
    head = `Call ${callSymbols(a.best_call)} and compete up to ${best}\u00a0${strainSymbol(strain)}`;
  } else {
    // pass: declaring loses points on average in every strain (docs/ADVISOR.md, auction mode)
    const top = (a.strains || []).reduce((x, y) => (y.ev > x.ev ? y : x), (a.strains || [])[0] || { strain: a.trump, ev: row.ev });
    return `Pass: declaring loses points in every strain; the best, ${top.best_bid || best}\u00a0${strainSymbol(top.strain)}, expects ${fmt(top.ev, 1)} points a deal.`;
  }
  let text = `${head}: ${made}`;
  if (a.runner_up !== null && a.runner_up !== undefined) {
    const d = a.ev_diff;
    text += d >= 0.05 ? `; ${a.runner_up} is ${points(d)} point${points(d) === "1.0" ? "" : "s"} worse` : `; ${a.runner_up} scores the same`;
  }
  return text + ".";
}

function verdictText(a) {
  if (!a.check) {
    return "Not checked against search: this page plays the deals with " + a.play + " only (whist-sim advise checks the answer against a searching player, which takes a minute or more).";
  }
  const c = a.check;
  const word = { confirmed: "Confirmed", "not contradicted": "Not contradicted", contradicted: "Contradicted" }[c.verdict] || c.verdict;
  return `${word} by the check against ${c.label || c.play}: ${c.verdict_why}.`;
}

function show(a) {
  shown = a;
  $("result").classList.remove("hidden");
  const best = a.recommended;
  const row = a.bids.find((b) => b.bid === best);
  $("sentence").textContent = sentence(a);
  const close = a.close_call && a.close_call_bids;
  $("closecall").classList.toggle("hidden", !close);
  $("closecall").textContent = close ? `A close call between ${a.close_call_bids[0]} and ${a.close_call_bids[1]}: ${a.close_call_why}; either is a sound bid.` : "";
  $("verdict").textContent = verdictText(a);
  $("verdict").className = "verdict " + (a.check ? a.check.verdict.replace(" ", "-") : "unchecked");
  $("headline").textContent = `Expected score ${fmt(row.ev, 1)} points a deal` +
    (a.mode === "contract" ? ` (trump ${strainSymbol(a.trump)}, declarer seat ${a.declarer} at ${a.level})` : "");
  $("sure").textContent = a.runner_up === null ? "" :
    `${fmt(a.ev_diff, 1)} points better than ${a.runner_up}, ${Math.round(100 * a.confidence)} % interval ` +
    `${fmt(a.ev_diff_ci && a.ev_diff_ci[0], 1)} to ${fmt(a.ev_diff_ci && a.ev_diff_ci[1], 1)} (paired over the same deals).`;
  drawChart();
  $("strains").replaceChildren();
  if (a.strains) {
    $("strains").appendChild(el("h3", {}, "By strain (you declare)"));
    $("strains").appendChild(el("div", { class: "scrollx" }, el("table", { class: "data" },
      el("tr", {}, ["strain", "best bid", "expected score", "95 % interval", "made", "tricks"].map((h) => el("th", {}, h))),
      a.strains.map((s) => el("tr", { class: a.best_call && a.best_call !== "pass" && a.best_call.replace(/^\d+/, "") === s.strain ? "best" : "" },
        el("td", { class: "strain " + (s.strain === "H" || s.strain === "D" ? "red" : ""), "aria-label": s.strain === "NT" ? "no trump" : PICK_SUIT_NAMES[SUIT_LETTERS.indexOf(s.strain)] }, strainSymbol(s.strain)),
        el("td", {}, s.best_bid), el("td", {}, fmt(s.ev, 1)),
        el("td", {}, s.ev_ci ? `${fmt(s.ev_ci[0], 1)} to ${fmt(s.ev_ci[1], 1)}` : "–"),
        el("td", {}, pct(s.p_make, 0)), el("td", {}, fmt(s.e_tricks, 1)))))));
  }
  // every bid: the numbers a player reads first; the intervals under them in small type
  $("table").replaceChildren(el("table", { class: "data bids", id: "bidtable" },
    el("tr", {}, ["bid", "made", "expected score", "tricks", "over"].map((h) => el("th", {}, h))),
    a.bids.map((b) => el("tr", { class: b.bid === best ? "best" : "" },
      el("td", {}, b.bid),
      el("td", {}, pct(b.p_make, 0), b.p_make_ci ? el("small", {}, `${pct(b.p_make_ci[0], 0)}–${pct(b.p_make_ci[1], 0)}`) : null),
      el("td", {}, fmt(b.ev, 1), b.ev_ci ? el("small", {}, `${fmt(b.ev_ci[0], 1)} to ${fmt(b.ev_ci[1], 1)}`) : null),
      el("td", {}, fmt(b.e_tricks, 1)), el("td", {}, pct(b.p_over, 0))))));
  const n = a.bids[0].tricks.length;
  $("tricks").replaceChildren(el("table", { class: "data tricks" },
    el("tr", {}, el("th", {}, "bid"), [...Array(n).keys()].map((k) => el("th", {}, k))),
    a.bids.map((b) => el("tr", { class: b.bid === best ? "best" : "" }, el("td", {}, b.bid),
      b.tricks.map((p) => el("td", { style: `background: rgba(37,99,235,${Math.min(0.35, p).toFixed(2)})` }, p >= 0.005 ? (100 * p).toFixed(0) : "."))))));
  const changed = Object.entries(a.rules).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(info.rules[k]));
  $("assumptions").replaceChildren(
    el("li", {}, `hand ${a.hand}, seat ${a.seat}` + (a.mode === "contract"
      ? `; declarer seat ${a.declarer}, trump ${strainSymbol(a.trump)}, level ${a.level}; earlier bids ${a.earlier_bids.join(",") || "none"}` +
        (a.forbidden !== null ? `; you may not bid ${a.forbidden} (last bidder)` : "")
      : `; auction: you declare, from level ${a.level}`)),
    el("li", {}, `play model: every seat plays ${a.play}`),
    el("li", {}, `bidding strategy of the other seats: ${a.bid_policy}` + (a.infer && a.earlier_bids.length ? ` (the earlier bids read as ${a.model} would, eps ${a.eps})` : "")),
    el("li", {}, `${a.deals.toLocaleString()} sampled deals (seed ${a.seed}), acceptance ${pct(a.acceptance_rate)}` +
      (a.constraints.length ? `; constraints ${a.constraints.join(" ")}` : "") +
      (Object.keys(a.known).length ? `; known cards ${Object.entries(a.known).map(([s, c]) => s + ":" + c).join(" ")}` : "")),
    el("li", {}, "rules: " + (changed.length ? changed.map(([k, v]) => `${k}=${v}`).join(", ") : "the rule book's defaults (RULES.md)")));
}

function drawChart() {
  if (!shown) return;
  const box = $("chart");
  box.replaceChildren();
  box.appendChild(chart(shown.bids, shown.recommended, box.clientWidth));
}

function prefill() {
  // /advisor?hand=...&trump=S&declarer=3&bids=6 (the chart lookup's link): the same hand and deal
  const q = new URLSearchParams(location.search);
  if (q.get("hand")) { $("hand").value = q.get("hand"); picker.fromText(q.get("hand")); handChanged2(); }
  for (const f of ["trump", "seat", "declarer", "level", "bids"]) if (q.get(f) !== null) $(f).value = q.get(f);
  if (q.get("players") && $("rule_players")) $("rule_players").value = q.get("players");
}

function handChanged2() { $("count").textContent = picker.picked.size ? `${picker.picked.size} cards` : ""; }

async function init() {
  picker = cardPicker($("picker"), handChanged);
  $("clear").onclick = () => { picker.clear(); $("hand").value = ""; handChanged2(); };
  $("hand").addEventListener("input", () => { picker.fromText($("hand").value); handChanged2(); });
  try { info = await api("/api/info"); } catch (e) { showError($("error"), e); return; }
  for (const p of info.play_policies) $("play").appendChild(el("option", { value: p, selected: p === info.default_play }, p));
  for (const p of info.model_bid_policies) $("bid_policy").appendChild(el("option", { value: p, selected: p === "heuristic" }, p));
  $("deals").value = Math.min(2000, info.default_deals);
  $("deals").max = info.max_deals;
  $("maxdeals").textContent = `At most ${info.max_deals.toLocaleString()} deals on this server.`;
  buildRuleInputs($("rules"), info);
  prefill();
  $("form").addEventListener("submit", start);
  $("cancel").onclick = cancel;
  let width = window.innerWidth;
  window.addEventListener("resize", () => { if (window.innerWidth !== width) { width = window.innerWidth; drawChart(); } });
}
init();

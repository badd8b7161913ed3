// The advisor page: a hand, the deal and the model in; the advice of POST /api/jobs out.
"use strict";
const RANKS = "AKQJT98765432";
const picked = new Set();   // "AS", "TH", ...
let info = null, job = null, timer = null;
const $ = (id) => document.getElementById(id);

function pickerText() {
  // PBN order: spades.hearts.diamonds.clubs, high cards first (RULES §9)
  return [3, 2, 1, 0].map((s) => [...RANKS].filter((r) => picked.has(r + SUIT_LETTERS[s])).join("")).join(".");
}

function buildPicker() {
  const box = $("picker");
  for (const s of [3, 2, 1, 0]) {
    const row = el("div", { class: "row" }, el("span", { class: "suit" + (s === 1 || s === 2 ? " red" : "") }, SUIT_SYMBOLS[s]));
    for (const r of RANKS) {
      const code = r + SUIT_LETTERS[s];
      row.appendChild(el("button", { type: "button", "data-card": code, class: s === 1 || s === 2 ? "red" : "",
        onclick: (ev) => {
          if (picked.has(code)) picked.delete(code); else picked.add(code);
          ev.currentTarget.classList.toggle("on", picked.has(code));
          $("hand").value = pickerText();
          $("count").textContent = picked.size + " cards";
        } }, r === "T" ? "10" : r));
    }
    box.appendChild(row);
  }
  $("clear").onclick = () => {
    picked.clear();
    box.querySelectorAll("button.on").forEach((b) => b.classList.remove("on"));
    $("hand").value = ""; $("count").textContent = "";
  };
}

function syncPicker() {
  // typed PBN (spades.hearts.diamonds.clubs) shows on the picker; other notations clear it
  // (the server reads every notation `advise` takes)
  picked.clear();
  const parts = $("hand").value.trim().toUpperCase().replaceAll("10", "T").split(".");
  if (parts.length === 4) {
    parts.forEach((ranks, k) => {
      for (const r of ranks) if (RANKS.includes(r)) picked.add(r + SUIT_LETTERS[3 - k]);
    });
  }
  document.querySelectorAll("#picker button[data-card]").forEach((b) => b.classList.toggle("on", picked.has(b.dataset.card)));
  $("count").textContent = picked.size ? picked.size + " cards" : "";
}

function buildRules() { buildRuleInputs($("rules"), info); }

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

async function start(ev) {
  ev.preventDefault();
  showError($("error"), null);
  try {
    job = await api("/api/jobs", request());
  } catch (e) { showError($("error"), e); return; }
  running(true);
  poll();
}

async function poll() {
  clearTimeout(timer);
  if (!job) return;
  try { job = await api("/api/jobs/" + job.id); } catch (e) { showError($("error"), e); running(false); return; }
  $("bar").style.width = (100 * job.fraction).toFixed(1) + "%";
  $("progtext").textContent = job.done_deals.toLocaleString() + " / " + job.deals.toLocaleString() + " deals";
  if (job.state === "running" && job.done_deals === 0) {
    const starting = await engineStarting("advice");  // the first advice waits on the compile
    if (starting) $("progtext").textContent = starting;
  }
  if (job.state === "running") { timer = setTimeout(poll, job.done_deals ? 250 : 1000); return; }
  running(false);
  if (job.state === "done") show(job.result);
  else if (job.state === "failed") showError($("error"), job.error);
  else showError($("error"), "cancelled after " + job.done_deals.toLocaleString() + " deals");
}

// a page that is left cancels its running advice (the server stops it after its block of deals)
window.addEventListener("pagehide", () => {
  if (job && job.state === "running") navigator.sendBeacon(`/api/jobs/${job.id}/cancel`);
});

async function cancel() {
  if (!job) return;
  try { await api("/api/jobs/" + job.id, undefined, "DELETE"); } catch (e) { showError($("error"), e); }
}

function chart(bids, best) {
  // expected score per bid with its interval: a dot and a whisker per bid, zero line dashed
  const W = 640, H = 260, L = 50, R = 10, T = 10, B = 30;
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

function show(a) {
  $("result").classList.remove("hidden");
  const best = a.recommended;
  const row = a.bids.find((b) => b.bid === best);
  $("headline").textContent = a.mode === "contract"
    ? `Recommended bid: ${best} (expected score ${fmt(row.ev, 1)} points, P(make) ${pct(row.p_make)})`
    : `Best call: ${a.best_call}` + (a.best_call === "pass" ? "" : ` — compete up to ${best}`);
  $("sure").textContent = a.runner_up === null ? "" :
    `${fmt(a.ev_diff, 1)} points better than the runner-up ${a.runner_up}, ${Math.round(100 * a.confidence)}% CI ` +
    `[${fmt(a.ev_diff_ci && a.ev_diff_ci[0], 1)}, ${fmt(a.ev_diff_ci && a.ev_diff_ci[1], 1)}] (paired over the same deals)`;
  $("chart").replaceChildren(chart(a.bids, best));
  $("strains").replaceChildren();
  if (a.strains) {
    $("strains").appendChild(el("h3", {}, "By strain (you declare)"));
    $("strains").appendChild(el("table", { class: "data" },
      el("tr", {}, ["strain", "best bid", "E[score]", "95% CI", "P(make)", "E[tricks]"].map((h) => el("th", {}, h))),
      a.strains.map((s) => el("tr", { class: a.best_call && a.best_call.endsWith(s.strain) && a.best_call !== "pass" ? "best" : "" },
        el("td", {}, s.strain), el("td", {}, s.best_bid), el("td", {}, fmt(s.ev, 1)),
        el("td", {}, s.ev_ci ? `[${fmt(s.ev_ci[0], 1)}, ${fmt(s.ev_ci[1], 1)}]` : "–"),
        el("td", {}, pct(s.p_make)), el("td", {}, fmt(s.e_tricks, 2))))));
  }
  $("table").replaceChildren(el("table", { class: "data", id: "bidtable" },
    el("tr", {}, ["bid", "P(make)", "95% CI", "E[score]", "95% CI", "E[tricks]", "P(over)"].map((h) => el("th", {}, h))),
    a.bids.map((b) => el("tr", { class: b.bid === best ? "best" : "" },
      el("td", {}, b.bid), el("td", {}, pct(b.p_make)),
      el("td", {}, b.p_make_ci ? `[${pct(b.p_make_ci[0])}, ${pct(b.p_make_ci[1])}]` : "–"),
      el("td", {}, fmt(b.ev, 1)), el("td", {}, b.ev_ci ? `[${fmt(b.ev_ci[0], 1)}, ${fmt(b.ev_ci[1], 1)}]` : "–"),
      el("td", {}, fmt(b.e_tricks, 2)), el("td", {}, pct(b.p_over))))));
  const n = a.bids[0].tricks.length;
  $("tricks").replaceChildren(el("table", { class: "data" },
    el("tr", {}, el("th", {}, "bid"), [...Array(n).keys()].map((k) => el("th", {}, k))),
    a.bids.map((b) => el("tr", { class: b.bid === best ? "best" : "" }, el("td", {}, b.bid),
      b.tricks.map((p) => el("td", { style: `background: rgba(37,99,235,${Math.min(0.8, p)})` }, p >= 0.005 ? (100 * p).toFixed(0) : "."))))));
  const changed = Object.entries(a.rules).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(info.rules[k]));
  $("assumptions").replaceChildren(
    el("li", {}, `hand ${a.hand}, seat ${a.seat}` + (a.mode === "contract"
      ? `; declarer seat ${a.declarer}, trump ${a.trump}, level ${a.level}; earlier bids ${a.earlier_bids.join(",") || "none"}` +
        (a.forbidden !== null ? `; you may not bid ${a.forbidden} (last bidder)` : "")
      : `; auction: you declare, from level ${a.level}`)),
    el("li", {}, `play model: every seat plays ${a.play}`),
    el("li", {}, `bidding strategy of the other seats: ${a.bid_policy}` + (a.infer && a.earlier_bids.length ? ` (the earlier bids read as ${a.model} would, eps ${a.eps})` : "")),
    el("li", {}, `${a.deals.toLocaleString()} sampled deals (seed ${a.seed}), acceptance ${pct(a.acceptance_rate)}` +
      (a.constraints.length ? `; constraints ${a.constraints.join(" ")}` : "") +
      (Object.keys(a.known).length ? `; known cards ${Object.entries(a.known).map(([s, c]) => s + ":" + c).join(" ")}` : "")),
    el("li", {}, "rules: " + (changed.length ? changed.map(([k, v]) => `${k}=${v}`).join(", ") : "the rule book's defaults (RULES.md)")));
}

async function init() {
  buildPicker();
  try { info = await api("/api/info"); } catch (e) { showError($("error"), e); return; }
  for (const p of info.play_policies) $("play").appendChild(el("option", { value: p, selected: p === info.default_play }, p));
  for (const p of info.model_bid_policies) $("bid_policy").appendChild(el("option", { value: p, selected: p === "heuristic" }, p));
  $("deals").value = Math.min(2000, info.default_deals);
  $("deals").max = info.max_deals;
  $("maxdeals").textContent = `(at most ${info.max_deals.toLocaleString()} on this server)`;
  buildRules();
  $("form").addEventListener("submit", start);
  $("cancel").onclick = cancel;
  $("hand").addEventListener("input", syncPicker);
}
init();

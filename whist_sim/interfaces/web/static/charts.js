// The charts page: the Markdown reports of results/ and of user datasets, rendered by the server.
"use strict";
const $ = (id) => document.getElementById(id);

async function openReport(root, path) {
  showError($("error"), null);
  try {
    const r = await api(`/api/report?root=${encodeURIComponent(root)}&path=${encodeURIComponent(path)}`);
    const art = $("report");
    art.innerHTML = r.html;   // rendered and escaped by the server (whist_sim/interfaces/web/reports.py)
    art.prepend(el("p", { class: "note" }, `${root}/${path}`));
    art.querySelectorAll("a[href^='/charts#']").forEach((a) => a.addEventListener("click", () => setTimeout(route, 0)));
    window.scrollTo(0, 0);
  } catch (e) { showError($("error"), e); }
}

function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  const i = h.indexOf("/");
  if (i > 0) openReport(h.slice(0, i), h.slice(i + 1));
}

async function init() {
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

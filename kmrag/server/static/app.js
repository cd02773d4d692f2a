// The kmrag web page: ask, read the answer with its citations, open a cited unit, see the relation paths,
// open the evidence in Neo4j Browser, follow recent answers and ingestion jobs.
// Text from documents and answers is data: it goes in with textContent only, never as markup.
"use strict";

const CONFIG = JSON.parse(document.getElementById("kmrag-config").textContent);
const KEY_ITEM = "kmrag-api-key";
const CITE_RE = /\[(u_[A-Za-z0-9]+)\]/g;
const SVG_NS = "http://www.w3.org/2000/svg";
let current = null; // the answer shown: {answer, citations (audit), paths, units}
let jobTimer = null;

const $ = (id) => document.getElementById(id);

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

// -- the API --------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

async function api(path, options = {}) {
  const headers = Object.assign({Accept: "application/json"}, options.headers || {});
  const key = sessionStorage.getItem(KEY_ITEM);
  if (key && CONFIG.tenant_mode !== "insecure-local") headers.Authorization = "Bearer " + key;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options = Object.assign({}, options, {body: JSON.stringify(options.json), method: options.method || "POST"});
  }
  const r = await fetch(path, Object.assign({}, options, {headers}));
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) {
    const detail = body && (body.detail || body.title) ? (body.detail || body.title) : r.statusText;
    if (r.status === 401) needKey(detail);
    throw new ApiError(r.status, typeof detail === "string" ? detail : JSON.stringify(detail));
  }
  return body;
}

function status(text, isError) {
  const s = $("status");
  s.textContent = text || "";
  s.classList.toggle("error", Boolean(isError));
}

// -- keys -----------------------------------------------------------------------------------------------

function needKey(detail) {
  if (CONFIG.tenant_mode === "insecure-local") return;
  $("key-form").hidden = false;
  status(detail || "an API key is needed", true);
}

function setupAuth() {
  if (CONFIG.tenant_mode === "insecure-local") {
    $("mode").textContent = "local mode, tenant " + CONFIG.tenant + " (no API key needed)";
    return;
  }
  $("mode").textContent = "API keys";
  $("key-form").hidden = false;
  $("key-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = $("api-key").value.trim();
    if (!v) return;
    sessionStorage.setItem(KEY_ITEM, v);
    $("api-key").value = "";
    status("key set for this browser tab");
    refresh();
  });
  $("key-forget").addEventListener("click", () => {
    sessionStorage.removeItem(KEY_ITEM);
    status("key forgotten");
  });
  if (!sessionStorage.getItem(KEY_ITEM)) status("enter an API key (kmrag keys create --tenant T) to start");
}

// -- the answer -----------------------------------------------------------------------------------------

function citeButton(uid) {
  const b = el("button", {type: "button", class: "cite", text: "[" + uid + "]", title: "open unit " + uid});
  b.setAttribute("data-unit", uid);
  b.addEventListener("click", () => openUnit(uid));
  return b;
}

// text with [u_…] markers as text nodes and citation buttons
function withCitations(text) {
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(CITE_RE)) {
    if (m.index > last) frag.append(document.createTextNode(text.slice(last, m.index)));
    frag.append(citeButton(m[1]));
    last = m.index + m[0].length;
  }
  if (last < text.length) frag.append(document.createTextNode(text.slice(last)));
  return frag;
}

// a statement (text with [u_…] markers) and a button for each unit it rests on that the text does not name
function statementPara(s) {
  const p = el("p", {class: "statement"}, withCitations(s.text));
  for (const uid of s.unit_ids || []) {
    if (!s.text.includes("[" + uid + "]")) p.append(" ", citeButton(uid));
  }
  return p;
}

const COMPUTED = new Set(["band", "comparison", "yes_no"]);
const THRESHOLD = typeof CONFIG.min_confidence === "number" ? CONFIG.min_confidence : 0.5;
const HIGH = Math.max(0.8, THRESHOLD);

// how a computed direct answer was computed: the rule, then each value (or span) with its citation
function renderBasis(basis) {
  const box = $("answer-basis");
  const list = $("basis-entities");
  list.replaceChildren();
  box.hidden = !(basis && (COMPUTED.has(basis.kind) || basis.kind === "path"));
  if (box.hidden) return;
  if (basis.kind === "path") {  // read along relations of the graph: each hop with the unit its edge came from
    $("basis-rule").textContent = "read along the graph's relations:";
    for (const h of basis.hops || []) {
      const li = el("li", {class: "basis-hop"}, h.subject + " \u2014" + h.predicate + "\u2192 " + h.object + " ");
      if (h.unit_id) li.append(citeButton(h.unit_id));
      list.append(li);
    }
    return;
  }
  $("basis-rule").textContent = "computed: " + (basis.rule || basis.kind);
  for (const e of basis.entities || []) {
    let said;
    if (e.name) said = e.name + (e.value !== undefined && e.value !== null && e.value !== "" ? ": " + String(e.value) : "");
    else said = "“" + (e.quote || "") + "”";
    const li = el("li", {class: "basis-entity"}, said + " ");
    if (e.unit_id) li.append(citeButton(e.unit_id));
    list.append(li);
  }
}

// how sure: a badge in words ("72% sure · medium"), a bar, and why
function renderConfidence(answer) {
  const box = $("confidence");
  if (typeof answer.confidence !== "number") { box.hidden = true; return; }
  const p = answer.confidence;
  const band = p >= HIGH ? "high" : p >= THRESHOLD ? "medium" : "low";
  const badge = $("confidence-badge");
  badge.className = "badge " + band;
  badge.textContent = Math.round(p * 100) + "% sure · " + band +
    (band === "low" ? " (below " + Math.round(THRESHOLD * 100) + "%: not an answer)" : "");
  const bar = $("confidence-bar");
  bar.low = THRESHOLD;
  bar.high = HIGH;
  bar.value = p;
  $("confidence-why").textContent = answer.confidence_why ? "why: " + answer.confidence_why : "";
  box.hidden = false;
}

function renderAnswer(answer, paths, units) {
  current = {answer, paths: paths || [], units: units || [], citations: answer.citations || []};
  $("answer").hidden = false;
  $("answer-question").textContent = "Q: " + answer.question;
  $("answer-direct").textContent = answer.direct ? "Answer: " + answer.direct : "";
  renderBasis(answer.direct ? answer.basis : null);
  const body = $("answer-text");
  body.replaceChildren();
  const found = Boolean(answer.statements && answer.statements.length);
  if (found) {
    for (const s of answer.statements) body.append(statementPara(s));
  } else {
    body.append(el("p", {class: "not-found"}, withCitations(answer.text || "")));
  }
  const evidence = found ? [] : (answer.evidence || []);
  $("evidence-list").replaceChildren(...evidence.map(statementPara));
  $("evidence").hidden = evidence.length === 0;
  renderConfidence(answer);
  $("answer-meta").textContent = "answer " + answer.id + " · " + (answer.generator || "") + ", " +
    (answer.strategy || "") + " · " + (answer.citations || []).length + " citation(s)";
  $("neo4j-button").hidden = true;
  drawPaths(withAnswerPath(current.paths, answer), new Set((answer.citations || []).map((c) => c.unit_id)),
            answerEdges(answer));
  const ranked = $("ranked");
  ranked.replaceChildren();
  for (const u of current.units) {
    const li = el("li", {class: u.cited ? "cited" : ""}, citeButton(u.id),
                  " " + u.type + " · " + u.source_id + " — ", el("span", {class: "snippet", text: u.snippet}));
    ranked.append(li);
  }
  $("ranked").previousElementSibling.hidden = current.units.length === 0;
}

function neo4jLink(browser) {
  const b = CONFIG.neo4j_browser;
  const a = $("neo4j-button");
  if (!b || !browser || !browser.query) { a.hidden = true; return; }
  // one statement, so Run shows the graph (Browser shows a multi-statement run as summaries only)
  const query = browser.one_statement || browser.params + ";\n" + browser.query;
  const q = new URLSearchParams({dbms: b.bolt, cmd: "edit", arg: query});
  a.href = b.url + (b.url.includes("?") ? "&" : "?") + q.toString();
  a.hidden = false;
}

async function ask(question) {
  status("asking…");
  $("ask-button").disabled = true;
  try {
    const got = await api("/v1/ask", {json: {question}});
    renderAnswer(got, got.paths, got.units);
    status(got.found ? "answered in " + Math.round(got.ms) + " ms" : "not found in the knowledge map");
    if (got.found) {
      const audit = await api("/v1/answers/" + encodeURIComponent(got.id));
      current.citations = audit.citations;
      neo4jLink(audit.browser);
    }
    loadAnswers();
  } catch (e) {
    status(e.message, true);
  } finally {
    $("ask-button").disabled = false;
  }
}

async function showAnswer(id) {
  try {
    const audit = await api("/v1/answers/" + encodeURIComponent(id));
    renderAnswer(audit.answer, audit.paths, []);
    current.citations = audit.citations;
    if (audit.answer.citations && audit.answer.citations.length) neo4jLink(audit.browser);
    status("");
  } catch (e) {
    status(e.message, true);
  }
}

// -- the unit panel ---------------------------------------------------------------------------------------

function addMeta(dl, term, value) {
  dl.append(el("dt", {text: term}), el("dd", {text: value}));
}

async function openUnit(uid) {
  const panel = $("unit-panel");
  panel.hidden = false;
  $("unit-id").textContent = uid;
  $("unit-status").textContent = "loading…";
  $("unit-meta").replaceChildren();
  $("unit-text").replaceChildren();
  $("unit-quote-line").hidden = true;
  let u;
  try {
    u = await api("/v1/units/" + encodeURIComponent(uid));
  } catch (e) {
    $("unit-status").textContent = e.message;
    return;
  }
  $("unit-status").textContent = u.retired ? "RETIRED " + (u.retired_at || "") : "current";
  $("unit-status").className = u.retired ? "retired" : "current";
  const dl = $("unit-meta");
  addMeta(dl, "type", u.type);
  addMeta(dl, "title", u.title || "");
  addMeta(dl, "source", u.source_id);
  let version = (u.source_version || "").slice(0, 12);
  if (u.source_version_now && u.source_version_now !== u.source_version) {
    version += " (the source is now at " + u.source_version_now.slice(0, 12) + ")";
  }
  addMeta(dl, "version", version);
  addMeta(dl, "section", (u.section_path || []).join(" › ") || "(top)");
  if (u.entities && u.entities.length) addMeta(dl, "entities", u.entities.map((e) => e.name).join(", "));
  const cite = (current && current.citations || []).find((c) => c.unit_id === uid);
  const pre = $("unit-text");
  const text = u.content || "";
  if (cite && cite.quote) {
    $("unit-quote").textContent = cite.quote;
    $("unit-quote-line").hidden = false;
  }
  if (cite && cite.start != null && cite.end != null && text.slice(cite.start, cite.end) === cite.quote) {
    pre.append(document.createTextNode(text.slice(0, cite.start)), el("mark", {text: text.slice(cite.start, cite.end)}),
               document.createTextNode(text.slice(cite.end)));
  } else {
    pre.textContent = text;
  }
}

// -- relation paths as a small graph ------------------------------------------------------------------------

// an answer read along a relation path: its hops are drawn (first) and highlighted
function answerEdges(answer) {
  const b = answer.direct ? answer.basis : null;
  return new Set(b && b.kind === "path" ? (b.hops || []).map((h) => h.subject + "\u0000" + (h.type || h.predicate) + "\u0000" + h.object) : []);
}

function withAnswerPath(paths, answer) {
  const b = answer.direct ? answer.basis : null;
  if (!b || b.kind !== "path") return paths;
  // drawn like retrieval's paths, whose edges are labelled by relation type
  return [{hops: (b.hops || []).map((h) => ({...h, predicate: h.type || h.predicate, unit_ids: h.unit_id ? [h.unit_id] : []}))},
          ...paths];
}

function drawPaths(paths, cited, onPath = new Set()) {
  const g = $("paths-graph");
  g.replaceChildren();
  const nodes = new Map();
  const edges = new Map();
  for (const p of paths) {
    for (const h of p.hops || []) {
      for (const n of [h.subject, h.object]) if (!nodes.has(n)) nodes.set(n, nodes.size);
      const key = h.subject + "\u0000" + h.predicate + "\u0000" + h.object;
      const e = edges.get(key) || {from: h.subject, to: h.object, label: h.predicate, units: new Set()};
      for (const u of h.unit_ids || []) e.units.add(u);
      edges.set(key, e);
    }
  }
  $("paths-none").hidden = nodes.size > 0;
  g.toggleAttribute("hidden", nodes.size === 0); // an <svg> has no .hidden property
  if (!nodes.size) return;
  const W = 720, H = Math.max(260, Math.min(520, 90 * Math.ceil(nodes.size / 2)));
  g.setAttribute("viewBox", "0 0 " + W + " " + H);
  g.setAttribute("width", W);
  g.setAttribute("height", H);
  const defs = svg("defs");
  const marker = svg("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 9, markerHeight: 9,
                                markerUnits: "userSpaceOnUse", orient: "auto-start-reverse"});
  marker.append(svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead"}));
  defs.append(marker);
  g.append(defs);
  const R = 16;
  const pos = layout([...nodes.keys()], [...edges.values()], W, H);
  for (const e of edges.values()) {
    const [x1, y1] = pos.get(e.from), [x2, y2] = pos.get(e.to);
    const d = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
    const isCited = [...e.units].some((u) => cited.has(u));
    const answerHop = onPath.has(e.from + "\u0000" + e.label + "\u0000" + e.to);
    const group = svg("g", {class: "edge" + (isCited ? " cited" : "") + (answerHop ? " answer-path" : "")});
    const title = svg("title");
    title.textContent = e.label + " (from " + [...e.units].join(", ") + ")";
    group.append(title,
      svg("line", {x1: x1 + ux * R, y1: y1 + uy * R, x2: x2 - ux * (R + 2), y2: y2 - uy * (R + 2), "marker-end": "url(#arrow)"}));
    const label = svg("text", {x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, "text-anchor": "middle", class: "edge-label"});
    label.textContent = e.label;
    group.append(label);
    g.append(group);
  }
  for (const [name] of nodes) {
    const [x, y] = pos.get(name);
    const group = svg("g", {class: "node"});
    const t = svg("text", {x, y: y + R + 14, "text-anchor": "middle"});
    t.textContent = name.length > 40 ? name.slice(0, 39) + "…" : name;
    const title = svg("title");
    title.textContent = name;
    group.append(svg("circle", {cx: x, cy: y, r: R}), t, title);
    g.append(group);
  }
}

// a few hundred steps of a force layout (Fruchterman-Reingold) from a circle: nodes repel, edges pull
function layout(names, edges, W, H) {
  const n = names.length, pad = 70;
  const p = new Map(names.map((name, i) => {
    const a = (2 * Math.PI * i) / n - Math.PI / 2;
    return [name, n === 1 ? [W / 2, H / 2] : [W / 2 + (W / 2 - pad) * Math.cos(a), H / 2 + (H / 2 - 40) * Math.sin(a)]];
  }));
  const k = Math.sqrt(((W - 2 * pad) * (H - 80)) / Math.max(n, 1)) * 1.1;
  for (let step = 0, t = W / 8; step < 300; step++, t *= 0.985) {
    const d = new Map(names.map((name) => [name, [0, 0]]));
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const [a, b] = [p.get(names[i]), p.get(names[j])];
        let dx = a[0] - b[0], dy = a[1] - b[1];
        const dist = Math.max(Math.hypot(dx, dy), 1);
        const f = (k * k) / dist;
        dx = (dx / dist) * f; dy = (dy / dist) * f;
        d.get(names[i])[0] += dx; d.get(names[i])[1] += dy;
        d.get(names[j])[0] -= dx; d.get(names[j])[1] -= dy;
      }
    }
    for (const e of edges) {
      if (e.from === e.to) continue;
      const [a, b] = [p.get(e.from), p.get(e.to)];
      const dx = a[0] - b[0], dy = a[1] - b[1];
      const dist = Math.max(Math.hypot(dx, dy), 1);
      const f = (dist * dist) / k;
      d.get(e.from)[0] -= (dx / dist) * f; d.get(e.from)[1] -= (dy / dist) * f;
      d.get(e.to)[0] += (dx / dist) * f; d.get(e.to)[1] += (dy / dist) * f;
    }
    for (const name of names) {
      const [dx, dy] = d.get(name), len = Math.max(Math.hypot(dx, dy), 1e-9);
      const q = p.get(name);
      q[0] = Math.min(W - pad, Math.max(pad, q[0] + (dx / len) * Math.min(len, t)));
      q[1] = Math.min(H - 45, Math.max(30, q[1] + (dy / len) * Math.min(len, t)));
    }
  }
  return p;
}

// -- recent answers and jobs -----------------------------------------------------------------------------

async function loadAnswers() {
  const ul = $("answers");
  try {
    const got = await api("/v1/answers?limit=10");
    ul.replaceChildren();
    if (!got.length) ul.append(el("li", {class: "muted", text: "no answers yet"}));
    for (const a of got) {
      const b = el("button", {type: "button", class: "link", text: a.question});
      b.addEventListener("click", () => showAnswer(a.id));
      const said = a.found ? (a.citations || []).length + " citation(s)" : "not found";
      ul.append(el("li", {}, b, el("span", {class: "muted", text: " " + a.id + " · " + said + " · " +
        String(a.created_at || "").slice(0, 16).replace("T", " ")})));
    }
  } catch (e) {
    ul.replaceChildren(el("li", {class: "muted", text: e.message}));
  }
}

function progressText(p) {
  if (!p) return "";
  return Object.entries(p).map(([stage, v]) => v && typeof v === "object" ? stage + " " + v.done + "/" + v.total : "")
    .filter(Boolean).join(", ");
}

async function loadJobs() {
  const ul = $("jobs");
  clearTimeout(jobTimer);
  let running = false;
  try {
    const got = await api("/v1/jobs?limit=10");
    ul.replaceChildren();
    if (!got.length) ul.append(el("li", {class: "muted", text: "no ingestion jobs"}));
    for (const j of got) {
      running = running || j.status === "queued" || j.status === "running";
      const li = el("li", {class: "job " + j.status},
        el("strong", {text: j.status}), " " + j.id + " · " + (j.inputs || []).join(", "));
      const prog = progressText(j.progress);
      if (prog) li.append(el("div", {class: "muted", text: prog}));
      if (j.errors && j.errors.length) li.append(el("div", {class: "error", text: j.errors.length + " error(s)"}));
      ul.append(li);
    }
  } catch (e) {
    ul.replaceChildren(el("li", {class: "muted", text: e.message}));
  }
  jobTimer = setTimeout(loadJobs, running ? 1500 : 15000);
}

function refresh() {
  loadAnswers();
  loadJobs();
}

// -- start ------------------------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  setupAuth();
  $("ask-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const q = $("question").value.trim();
    if (q) ask(q);
  });
  $("question").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      $("ask-form").requestSubmit();
    }
  });
  $("panel-close").addEventListener("click", () => { $("unit-panel").hidden = true; });
  if (CONFIG.tenant_mode === "insecure-local" || sessionStorage.getItem(KEY_ITEM)) refresh();
});

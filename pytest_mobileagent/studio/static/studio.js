// mobileagent studio page: the live screen (Server-Sent Events), the hierarchy, actions, recording.
// Every URL is relative: the page lives under /<token>/, which every request must carry.
"use strict";

const $ = (id) => document.getElementById(id);
const screenImg = $("screen");
const LONG_PRESS_MS = 500;   // a press held this long is a long press
const DRAG_PX = 24;          // device pixels a pointer must travel to be a swipe

let state = { nodes: [], width: 0, height: 0 };
let selectedIndex = null;
let hoverIndex = null;
let shownUrl = null;
let version = 0;

// ---- the live screen ----------------------------------------------------------------
function connect() {
  const source = new EventSource("stream");
  source.addEventListener("screen", (msg) => {
    const next = JSON.parse(msg.data);
    if (next.error) {
      setStatus("device: " + next.error, true);
      return;
    }
    state = next;
    setStatus("live", false);
    showScreen(Number(msg.lastEventId));
    renderTree();
  });
  source.onerror = () => setStatus("disconnected: retrying…", true);
}

// The PNG is fetched once per new screen and swapped in when decoded (no flicker).
async function showScreen(id) {
  const response = await fetch("screen.png?v=" + id, { cache: "no-store" });
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const probe = new Image();
  probe.onload = () => {
    if (id < version) { URL.revokeObjectURL(url); return; }  // an older screen arrived late
    version = id;
    screenImg.src = url;
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = url;
    screenImg.dataset.version = String(id);
    // For benchmarks/bench_studio.py: when (wall clock) the page showed the screen taken at taken_at.
    window.studioShown = { version: id, takenAt: state.taken_at, shownAt: performance.timeOrigin + performance.now() };
    drawHighlight();
  };
  probe.src = url;
}

function setStatus(text, bad) {
  $("status").textContent = text;
  $("status").className = bad ? "error" : "muted";
}

// ---- coordinates and views ------------------------------------------------------------
function devicePoint(event) {
  const rect = screenImg.getBoundingClientRect();
  const sx = (state.width || screenImg.naturalWidth) / rect.width;
  const sy = (state.height || screenImg.naturalHeight) / rect.height;
  return { x: Math.round((event.clientX - rect.left) * sx), y: Math.round((event.clientY - rect.top) * sy) };
}

function nodeAt(x, y) {
  let best = null, bestArea = Infinity;
  for (const n of state.nodes) {
    const [x1, y1, x2, y2] = n.bounds;
    if (x >= x1 && x < x2 && y >= y1 && y < y2) {
      const area = (x2 - x1) * (y2 - y1);
      if (area <= bestArea) { best = n; bestArea = area; }  // innermost: later nodes are deeper
    }
  }
  return best;
}

function label(n) {
  const cls = n.cls.split(".").pop();
  const rid = n.id ? n.id.split(":id/").pop() : "";
  return { cls, rid };
}

function renderTree() {
  const tree = $("tree");
  tree.textContent = "";
  $("node-count").textContent = `(${state.nodes.length} views, ${state.package || "?"})`;
  for (const n of state.nodes) {
    const li = document.createElement("li");
    li.dataset.i = n.i;
    li.style.paddingLeft = (4 + n.depth * 12) + "px";
    const { cls, rid } = label(n);
    li.innerHTML = `<span class="cls"></span> <span class="rid"></span> <span class="txt"></span>`;
    li.querySelector(".cls").textContent = cls;
    li.querySelector(".rid").textContent = rid;
    li.querySelector(".txt").textContent = n.text ? JSON.stringify(n.text) : (n.desc ? `desc=${JSON.stringify(n.desc)}` : "");
    li.title = n.id || n.cls;
    li.onmouseenter = () => setHover(n.i);
    li.onclick = () => select(n.i);
    if (n.i === selectedIndex) li.classList.add("selected");
    tree.appendChild(li);
  }
  if (selectedIndex !== null && selectedIndex < state.nodes.length) showSelected(state.nodes[selectedIndex]);
  drawHighlight();
}

function setHover(i) {
  hoverIndex = i;
  for (const li of document.querySelectorAll("#tree li.hover")) li.classList.remove("hover");
  const li = document.querySelector(`#tree li[data-i="${i}"]`);
  if (li) { li.classList.add("hover"); }
  const n = i === null ? null : state.nodes[i];
  $("hover-info").textContent = n ? (n.selector || `${label(n).cls} (no selector: no id, text or desc)`) + `  ${JSON.stringify(n.bounds)}` : "";
  drawHighlight();
}

function drawHighlight() {
  const box = $("highlight");
  const i = hoverIndex !== null ? hoverIndex : selectedIndex;
  const n = i === null ? null : state.nodes[i];
  if (!n || !state.width) { box.hidden = true; return; }
  const rect = screenImg.getBoundingClientRect();
  const s = rect.width / state.width;
  const [x1, y1, x2, y2] = n.bounds;
  Object.assign(box.style, { left: x1 * s + "px", top: y1 * s + "px", width: (x2 - x1) * s + "px", height: (y2 - y1) * s + "px" });
  box.hidden = false;
}

function select(i) {
  selectedIndex = i;
  for (const li of document.querySelectorAll("#tree li.selected")) li.classList.remove("selected");
  const li = document.querySelector(`#tree li[data-i="${i}"]`);
  if (li) { li.classList.add("selected"); li.scrollIntoView({ block: "nearest" }); }
  showSelected(state.nodes[i]);
}

function showSelected(n) {
  const box = $("selected");
  box.className = "";
  const rows = [
    ["golden", n.selector ? n.selector + (n.unique ? "" : "  (not unique: the first match)") : "none: no id, text or desc finds it"],
    ["resource-id", n.id], ["text", n.text], ["content-desc", n.desc], ["class", n.cls], ["package", n.package],
    ["bounds", JSON.stringify(n.bounds)],
    ["flags", ["clickable", "long_clickable", "checkable", "checked", "enabled", "focused", "scrollable", "selected"]
      .filter((f) => n[f]).join(" ")],
  ];
  const table = document.createElement("table");
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    const td = tr.insertCell();
    td.textContent = v || "";
    if (k === "golden") td.className = "mono selector";
  }
  box.textContent = "";
  box.appendChild(table);
}

// ---- acting on the phone -------------------------------------------------------------
async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  const errorBox = $("error");
  if (!response.ok) {
    errorBox.textContent = data.error || `HTTP ${response.status}`;
    errorBox.hidden = false;
    throw new Error(errorBox.textContent);
  }
  errorBox.hidden = true;
  if (data.recording !== undefined) renderRecording(data.recording);
  return data;
}

let press = null;
screenImg.addEventListener("pointerdown", (e) => {
  e.preventDefault();
  screenImg.setPointerCapture(e.pointerId);
  press = { start: devicePoint(e), client: [e.offsetX, e.offsetY], at: performance.now() };
});
screenImg.addEventListener("pointermove", (e) => {
  const p = devicePoint(e);
  if (!press) { const n = nodeAt(p.x, p.y); setHover(n ? n.i : null); return; }
  const svg = $("drag"), line = $("drag-line");
  svg.hidden = false;
  line.setAttribute("x1", press.client[0]); line.setAttribute("y1", press.client[1]);
  line.setAttribute("x2", e.offsetX); line.setAttribute("y2", e.offsetY);
});
screenImg.addEventListener("pointerleave", () => { if (!press) setHover(null); });
screenImg.addEventListener("pointerup", (e) => {
  if (!press) return;
  const end = devicePoint(e);
  const held = performance.now() - press.at;
  const { start } = press;
  press = null;
  $("drag").hidden = true;
  const moved = Math.hypot(end.x - start.x, end.y - start.y);
  if ($("inspect-mode").checked) {
    const n = nodeAt(start.x, start.y);
    if (n) select(n.i);
    return;
  }
  let action;
  if (moved >= DRAG_PX) {
    action = { type: "swipe", x: start.x, y: start.y, x2: clamp(end.x, state.width), y2: clamp(end.y, state.height),
               duration_ms: Math.max(100, Math.min(Math.round(held), 2000)) };
  } else if (held >= LONG_PRESS_MS) {
    action = { type: "long_press", x: start.x, y: start.y };
  } else {
    action = { type: "tap", x: start.x, y: start.y };
  }
  post("action", action).catch(() => {});
});
const clamp = (v, max) => Math.max(0, Math.min(v, max - 1));

for (const button of document.querySelectorAll("button[data-key]")) {
  button.addEventListener("click", () => post("action", { type: "key", key: button.dataset.key }).catch(() => {}));
}
$("type-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("type-text").value;
  if (!text) return;
  post("action", { type: "type", text }).then(() => { $("type-text").value = ""; }).catch(() => {});
});
$("launch").addEventListener("click", () => post("action", { type: "launch", package: $("apps").value }).catch(() => {}));

async function loadApps() {
  const data = await (await fetch("apps")).json();
  $("device").textContent = data.serial;
  const select = $("apps");
  for (const app of data.apps) {
    const option = document.createElement("option");
    option.value = app.package;
    option.textContent = app.name === app.package ? app.package : `${app.name} (${app.package})`;
    select.appendChild(option);
  }
}

// ---- recording ---------------------------------------------------------------------
function renderRecording(recording) {
  const steps = $("steps");
  steps.textContent = "";
  const startButton = $("record-start");
  if (!recording) {
    startButton.classList.remove("recording");
    startButton.textContent = "● Record";
    $("record-stop-form").hidden = true;
    return;
  }
  startButton.classList.add("recording");
  startButton.textContent = "● Recording " + recording.package;
  $("record-stop-form").hidden = false;
  for (const step of recording.steps) {
    const li = document.createElement("li");
    li.textContent = step.code || ("# " + step.note);
    steps.appendChild(li);
  }
}

$("record-start").addEventListener("click", () => {
  $("task-file").hidden = true;
  post("record/start", { package: $("apps").value }).catch(() => {});
});
$("record-stop-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = await post("record/stop", { prompt: $("prompt").value, name: $("task-name").value }).catch(() => null);
  if (!data) return;
  renderRecording(null);
  $("task-file").hidden = false;
  $("task-path").textContent = data.path;
  $("task-path").dataset.path = data.path;
  $("replay-results").textContent = "";
  showSource(data.source);
});

// The task's source in its pane, wrapped, opened at the golden path and the judge (what the author edits);
// the docstring, imports and seed stub are above, a scroll away.
function showSource(source) {
  const pane = $("task-source");
  const at = source.indexOf("\n@task(") + 1;
  const head = document.createElement("span");
  head.textContent = source.slice(0, at);
  const body = document.createElement("span");
  body.id = "task-golden";
  body.textContent = source.slice(at);
  pane.replaceChildren(head, body);
  $("task-file").scrollIntoView({ block: "start" });
  const padding = parseFloat(getComputedStyle(pane).paddingTop) || 0;
  pane.scrollTop += body.getBoundingClientRect().top - pane.getBoundingClientRect().top - pane.clientTop - padding;
}
$("replay").addEventListener("click", async () => {
  const results = $("replay-results");
  results.textContent = "running pytest…";
  const data = await post("replay", { path: $("task-path").dataset.path, agents: ["replay", "noop"] }).catch(() => null);
  if (!data) { results.textContent = ""; return; }
  results.textContent = "";
  for (const r of data.results) {
    const good = r.agent === "noop" ? r.failed : r.passed;
    const div = document.createElement("div");
    div.className = good ? "pass" : "fail";
    div.dataset.agent = r.agent;
    div.dataset.verdict = r.passed ? "passed" : (r.failed ? "failed" : "error");
    div.textContent = `--agent ${r.agent}: ${div.dataset.verdict} (${r.summary})` + (good ? " ✓" : " ✗ expected " + (r.agent === "noop" ? "a failure" : "a pass"));
    div.title = r.output;
    results.appendChild(div);
  }
});

window.addEventListener("resize", drawHighlight);
loadApps();
connect();
fetch("record").then((r) => r.json()).then((d) => renderRecording(d.recording));

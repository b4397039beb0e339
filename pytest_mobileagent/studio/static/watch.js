// mobileagent watch page: one card per worker, updated from the run's Server-Sent Events.
"use strict";

const workersBox = document.getElementById("workers");
const cards = {};

function card(worker) {
  if (cards[worker]) return cards[worker];
  document.getElementById("waiting")?.remove();
  const el = document.createElement("section");
  el.className = "worker";
  el.dataset.worker = worker;
  el.innerHTML = `
    <h2><span class="name"></span> <span class="verdict"></span></h2>
    <img class="screen" alt="" data-version="0">
    <div class="task mono"></div>
    <div class="prompt muted"></div>
    <div class="step"></div>
    <div class="label">last action</div><pre class="action mono"></pre>
    <div class="label">LLM output</div><pre class="llm mono"></pre>
    <div class="label">milestones</div><ul class="milestones"></ul>`;
  el.querySelector(".name").textContent = worker;
  el.querySelector(".screen").alt = `${worker}'s phone`;
  workersBox.appendChild(el);
  cards[worker] = el;
  return el;
}

function render(worker, s) {
  const el = card(worker);
  const q = (sel) => el.querySelector(sel);
  q(".task").textContent = s.task ? `${s.task} on ${s.device || "?"}` : "no task yet";
  q(".prompt").textContent = s.prompt || "";
  q(".step").textContent = s.task ? `step ${s.step ?? 0} of ${s.max_steps ?? "?"}` : "";
  q(".action").textContent = s.action ? JSON.stringify(s.action) : "(none yet)";
  q(".llm").textContent = s.llm_output || "(none)";
  const verdict = q(".verdict");
  verdict.textContent = !s.task ? "waiting" : s.done ? (s.success ? "passed" : `failed (${s.stop_reason || ""})`) : (s.success ? "task done; the agent runs on" : "running");
  verdict.className = "verdict " + (s.success ? "pass" : (s.done ? "fail" : "muted"));
  const list = q(".milestones");
  list.textContent = "";
  for (const name of s.milestones || []) {
    const li = document.createElement("li");
    const reached = (s.reached || []).includes(name);
    li.textContent = (reached ? "✓ " : "· ") + name;
    li.className = reached ? "pass" : "muted";
    list.appendChild(li);
  }
  if (!(s.milestones || []).length) list.innerHTML = "<li class='muted'>(none declared)</li>";
  const img = q(".screen");
  const v = s.screen_version || 0;
  if (v && String(v) !== img.dataset.want) {
    img.dataset.want = String(v);
    const probe = new Image();
    probe.onload = () => { img.src = probe.src; img.dataset.version = String(v); };
    probe.src = `screen/${encodeURIComponent(worker)}.png?v=${v}`;
  }
}

// Done of collected, and the success rate so far: from the finished tasks' records.
function renderProgress(p) {
  const box = document.getElementById("progress");
  box.dataset.done = p.done;
  box.dataset.total = p.total;
  box.dataset.passed = p.passed;
  const rate = p.done ? `${(100 * p.passed / p.done).toFixed(1)}%` : "–";
  box.textContent = `${p.done} / ${p.total || "?"} tasks done · SR ${rate} (${p.passed} passed)`;
}

const source = new EventSource("stream");
source.addEventListener("run", (msg) => {
  document.getElementById("status").textContent = "live";
  const run = JSON.parse(msg.data);
  renderProgress(run.progress);
  for (const [worker, s] of Object.entries(run.workers)) render(worker, s);
});
source.onerror = () => { document.getElementById("status").textContent = "the run has ended or is unreachable"; };

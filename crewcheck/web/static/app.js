// crewcheck serve: the page. Every answer comes from the server (the same library calls
// as the command line); this file only collects the inputs and draws the answers.
"use strict";

const $ = (sel) => document.querySelector(sel);
let mode = "fields";          // which input the deal is read from: "fields" or "json"
let job = null;               // the job being polled
let players = 4;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function suitOf(card) { return card.replace(/[0-9]+$/, ""); }
function cardSpan(card, extra) {
  return el("span", { class: `card suit-${suitOf(card)} ${extra || ""}`, text: card });
}

// -- inputs ---------------------------------------------------------------------------
function drawSeatInputs(values) {
  const box = $("#hands");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let s = 0; s < players; s++) {
    const input = el("input", { name: `hands.${s}`, value: (values || old)[s] || "", placeholder: "B1 B7 G3 ..." });
    box.append(el("label", { class: "seat-input", text: `Seat ${s} ` }, input),
               el("div", { class: "error", "data-for": `hands.${s}` }));
  }
}

function fields() {
  const f = $("#fields");
  return {
    hands: [...$("#hands").querySelectorAll("input")].map((i) => i.value),
    tasks: f.tasks.value, trump: f.trump.value, lead: f.lead.value,
    assignment: f.assignment.value, order_rule: f.order_rule.value, played: f.played.value,
    conditions: f.conditions.value,
  };
}

function fillFields(v) {
  players = v.hands.length;
  $("#players").value = String(players);
  drawSeatInputs(v.hands);
  const f = $("#fields");
  f.tasks.value = v.tasks; f.trump.value = v.trump; f.lead.value = v.lead;
  f.assignment.value = v.assignment; f.order_rule.value = v.order_rule; f.played.value = v.played;
  f.conditions.value = v.conditions;
}

function payload() {
  return mode === "json" ? { deal: $("#deal-json").value } : { fields: fields() };
}

function setMode(m) {
  mode = m;
  $("#tab-fields").classList.toggle("active", m === "fields");
  $("#tab-json").classList.toggle("active", m === "json");
  $("#fields").hidden = m !== "fields";
  $("#json-panel").hidden = m !== "json";
}

function clearErrors() { for (const e of document.querySelectorAll(".error")) e.textContent = ""; }

function showError(err) {
  // input errors go next to their field, as the command line's one-line message
  const target = err.input && document.querySelector(`.error[data-for="${err.input}"]`);
  if (target && err.input_error !== false) { target.textContent = err.line; return; }
  showStatus(`error: ${err.line}`, false);
}

async function call(method, url, body) {
  const response = await fetch(url, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: { line: `HTTP ${response.status}` } }; }
  return { status: response.status, data };
}

// -- the deal -------------------------------------------------------------------------
function drawLayout(layout) {
  $("#table-panel").hidden = false;
  const table = el("table", {});
  const head = el("tr", {}, el("th", { text: "" }));
  for (const s of layout.suits) head.append(el("th", { class: `suit-${s}`, text: s === layout.trump ? `${s} (trump)` : s }));
  table.append(head);
  for (const seat of layout.seats) {
    const row = el("tr", { class: seat.seat === layout.to_play ? "to-play" : "" },
                   el("td", { class: "seat-name", text: `seat ${seat.seat}` }));
    for (const suit of seat.suits) {
      const cell = el("td", {});
      for (const c of suit.cards) {
        const span = cardSpan(c.card, (c.held ? "" : "gone") + (c.task ? " task" : ""));
        if (c.task) {
          const who = c.task.seat === null ? "?" : c.task.seat;
          span.append(el("span", { class: "badge", text: `@${who}${c.task.token ? ":" + c.task.token : ""}${c.task.done ? "✓" : ""}` }));
          span.title = c.task.seat === null ? "task (free assignment)" : `task of seat ${c.task.seat}`;
        }
        cell.append(span);
      }
      row.append(cell);
    }
    table.append(row);
  }
  const tasks = layout.tasks.map((t) => `${t.card}${t.seat === null ? "" : "@" + t.seat}${t.token ? ":" + t.token : ""}${t.done ? " ✓" : ""}`);
  const info = el("p", { class: "small", text:
    `${layout.players} players, rules ${layout.rules}, first lead seat ${layout.first_leader ?? "any"}; ` +
    `tasks: ${tasks.join(", ") || "none"}; ` +
    (layout.conditions.length ? `conditions: ${layout.conditions.join("; ")}; ` : "") +
    `${layout.tricks.length} trick(s) played` +
    (layout.current ? `, ${layout.current.cards.join(" ")} on the table` : "") +
    (layout.over ? `; game over: ${layout.over}` : "") });
  $("#layout").replaceChildren(table, info);
}

async function layOut() {
  clearErrors();
  hidePanels("#result-panel", "#analysis-panel", "#review-panel");
  const { status, data } = await call("POST", "/api/deal", payload());
  if (status !== 200) { showError(data.error); return null; }
  drawLayout(data.layout);
  // keep the other input in step with the one edited
  if (mode === "json") fillFields(data.layout.fields);
  else $("#deal-json").value = JSON.stringify(data.layout.deal, null, 1);
  return data.layout;
}

// -- jobs -----------------------------------------------------------------------------
function showStatus(text, running) {
  $("#status").hidden = false;
  $("#status-text").textContent = text;
  $("#progress").hidden = !running;
  $("#cancel").hidden = !running;
  for (const id of ["#decide", "#analyse", "#review"]) $(id).disabled = running;
}

function seconds(x) { return x < 0.01 ? "under 0.01 s" : `${x.toFixed(2)} s`; }

function hidePanels(...ids) { for (const id of ids) $(id).hidden = true; }

async function start(kind, extra) {
  clearErrors();
  // answers about another position or deal would be stale
  if (kind === "decide") hidePanels("#result-panel", "#analysis-panel", "#review-panel");
  if (kind === "review") hidePanels("#review-panel", "#analysis-panel");
  if (kind === "analyse") hidePanels("#analysis-panel");
  const { status, data } = await call("POST", "/api/jobs", { kind, ...payload(), ...(extra || {}) });
  if (status === 409) { showStatus(data.error.line, false); return; }
  if (status !== 202) { showError(data.error); return; }
  job = data;
  showStatus(`${kind}: queued`, true);
  poll(job.id, kind);
}

async function poll(id, kind) {
  const { status, data } = await call("GET", `/api/jobs/${id}`);
  if (status !== 200) { showStatus(`error: ${data.error.line}`, false); return; }
  if (data.state === "queued" || data.state === "running") {
    const p = data.progress;
    $("#progress").max = Math.max(1, p.total);
    $("#progress").value = p.done;
    const step = p.total > 1 ? ` (decision ${p.done + 1} of about ${p.total}: ${p.what})` : "";
    showStatus(`${kind}: ${data.state === "queued" ? "waiting for a free worker" : "deciding"}, ${data.elapsed.toFixed(1)} s${step}`, true);
    setTimeout(() => poll(id, kind), 150);
    return;
  }
  job = null;
  if (data.state === "cancelled") { showStatus(`${kind}: cancelled after ${data.elapsed.toFixed(1)} s`, false); return; }
  if (data.state === "error") { showStatus(`${kind}: failed`, false); showError(data.error); return; }
  showStatus(`${kind}: done in ${seconds(data.elapsed)}`, false);
  drawLayout(data.result.layout);
  if (data.result.decide) drawDecision(data.result.decide, data.result.layout);
  if (data.result.analyse) drawAnalysis(data.result.analyse, data.result.layout);
  if (data.result.review) drawReview(data.result.review, data.result.layout);
}

// -- answers --------------------------------------------------------------------------
function tasksDone(trick, layout) {
  const done = layout.tasks.filter((t) => trick.cards.includes(t.card)).map((t) => t.card);
  return done.length ? `task ${done.join(", ")} done` : "";
}

function drawDecision(r, layout) {
  $("#result-panel").hidden = false;
  const v = $("#verdict");
  v.textContent = r.verdict;
  v.className = `verdict ${r.verdict}`;
  const stage = r.stats && r.stats.stage ? `, ${r.stats.stage}` : "";
  $("#verdict-detail").textContent = `${r.backend}${stage}, ${r.seconds.toFixed(4)} s, ${r.stats.nodes} nodes` +
    (r.explanation ? ` — why: ${r.explanation}` : "") +
    (r.assignment ? ` — assignment: ${r.assignment.map((a) => `${a.card}@${a.seat}`).join(", ")}` : "");
  const body = $("#line tbody");
  body.replaceChildren();
  $("#line-hint").hidden = !r.witness;
  if (!r.witness) return;
  const plays = r.witness.flatMap((t) => t.cards);
  let index = 0;
  r.witness.forEach((trick, n) => {
    const row = el("tr", { class: n < r.history_tricks ? "played" : "", "data-trick": String(n + 1), "data-lead": String(trick.lead) },
                   el("td", { text: `${n + 1}.` }), el("td", { text: `seat ${trick.lead} leads` }));
    const cards = el("td", { class: "cards" });
    for (const card of trick.cards) {
      const at = index++;
      const b = el("button", { type: "button", class: `card suit-${suitOf(card)}`, text: card,
                               title: "every card's verdict before this card" });
      b.addEventListener("click", () => start("analyse", { history: plays.slice(0, at) }));
      cards.append(b);
    }
    row.append(cards, el("td", { text: `→ seat ${trick.winner} wins` }),
               el("td", { class: "small", text: (n < r.history_tricks ? "(played) " : "") + tasksDone(trick, layout) }));
    body.append(row);
  });
}

function groupLine(next, history, p) {
  const out = [];
  next.forEach((c, i) => { if (i > 0 && (history + i) % p === 0) out.push("/"); out.push(c); });
  return out.join(" ");
}

function drawAnalysis(a, layout) {
  $("#analysis-panel").hidden = false;
  const who = a.to_play === null ? "any seat leads" : `seat ${a.to_play} to play`;
  $("#analysis-title").textContent = `Every card at trick ${a.trick}, ${who}`;
  const total = a.cards.reduce((n, c) => n + c.cards.length, 0);
  const kept = a.cards.filter((c) => c.verdict === "winnable").reduce((n, c) => n + c.cards.length, 0);
  $("#analysis-summary").textContent = total
    ? `position ${a.verdict}; ${kept} of ${total} cards keep it winnable (${a.seconds.toFixed(3)} s, ${a.decisions} decisions)`
    : `no card to play: ${layout.over || "the game is over"}`;
  const body = $("#analysis tbody");
  body.replaceChildren();
  for (const c of a.cards) {
    const names = el("td", {});
    c.cards.forEach((card, i) => { if (i) names.append(" = "); names.append(cardSpan(card)); });
    const detail = c.next ? groupLine(c.next, a.history, layout.players) : (c.explanation && c.how === "decided" ? `why: ${c.explanation}` : "");
    body.append(el("tr", { "data-cards": c.cards.join(" ") }, names,
                   el("td", { class: `v-${c.verdict}`, text: c.verdict }), el("td", { class: "small", text: detail })));
  }
  const seats = $("#task-seats");
  seats.replaceChildren();
  if (a.tasks && a.tasks.length) {
    seats.append(el("h3", { text: "Who can still take each open task" }));
    for (const t of a.tasks) {
      const who = t.seats.length ? t.seats.map((s) => `seat ${s}`).join(", ") : "no seat";
      seats.append(el("div", {}, cardSpan(t.card), ` ${who}${t.unknown.length ? " (undecided: " + t.unknown.join(", ") + ")" : ""}`));
    }
  }
}

function drawReview(r, layout) {
  $("#review-panel").hidden = false;
  $("#review-summary").textContent = r.summary;
  $("#review-summary").className = r.losing || r.start === "unwinnable" ? "v-unwinnable" : "v-winnable";
  $("#review-detail").textContent = `${r.backend}, ${r.seconds.toFixed(3)} s, ${r.decisions} decisions, ${r.nodes} nodes`;
  const body = $("#review-table tbody");
  body.replaceChildren();
  const p = layout.players;
  for (let first = 0; first < r.steps.length; first += p) {
    const steps = r.steps.slice(first, first + p);
    const cards = el("td", {});
    for (const s of steps) {
      const span = cardSpan(s.card, r.losing === s.index ? "lost-card" : "");
      span.title = `before: ${s.before}, after: ${s.after}`;
      cards.append(span);
    }
    const last = steps[steps.length - 1];
    const lostHere = r.losing !== null && r.losing >= first && r.losing < first + p;
    const verdict = lostHere ? `lost by ${r.steps[r.losing].card}` : last.after;
    body.append(el("tr", {}, el("td", { text: `${first / p + 1}.` }), el("td", { text: `seat ${steps[0].seat} leads` }),
                    cards, el("td", { class: `v-${lostHere ? "unwinnable" : last.after}`, text: verdict })));
  }
  if (r.alternatives) drawAnalysis(r.alternatives, layout);
}

// -- wiring ---------------------------------------------------------------------------
async function loadExamples() {
  const { data } = await call("GET", "/api/examples");
  for (const e of data.examples) $("#example").append(el("option", { value: e.name, text: e.name }));
  $("#example").addEventListener("change", async () => {
    const name = $("#example").value;
    if (!name) return;
    const got = await call("GET", `/api/examples/${encodeURIComponent(name)}`);
    if (got.status !== 200) { showError(got.data.error); return; }
    const entry = data.examples.find((e) => e.name === name);
    $("#example-comment").textContent = entry ? entry.comment : "";
    $("#deal-json").value = got.data.text;
    setMode("json");
    await layOut();
  });
}

$("#tab-fields").addEventListener("click", () => setMode("fields"));
$("#tab-json").addEventListener("click", () => setMode("json"));
$("#players").addEventListener("change", () => { players = Number($("#players").value); drawSeatInputs(); });
$("#show").addEventListener("click", layOut);
$("#decide").addEventListener("click", () => start("decide"));
$("#analyse").addEventListener("click", () => start("analyse"));
$("#review").addEventListener("click", () => start("review"));
$("#cancel").addEventListener("click", async () => { if (job) await call("POST", `/api/jobs/${job.id}/cancel`, {}); });
drawSeatInputs([]);
loadExamples();

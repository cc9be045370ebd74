// crewcheck serve: the board. The server deals, lays out each position (whose turn, the
// legal cards, the tricks) and decides; this file only draws its answers and keeps the
// moves: the cards played (`history`) and the cards taken back (`future`, for redo).
// The position lives in the address: `?game=mission&mission=1&...&play=B3,B4` or
// `?deal=<base64url of the deal file>&play=...`, so a link opens the same board and the
// back button steps back through the positions shown.
"use strict";

const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => [...document.querySelectorAll(sel)];

const S = {
  game: null,        // {title, rule, notes, params} of a dealt game; null for a deal file
  base: null,        // the deal file's object without its history
  history: [],       // cards played, from the first card of the game
  future: [],        // cards taken back (redo), or the rest of a winning line
  layout: null,      // the server's layout of the position
  verdicts: new Map(),  // history key -> the analysis (crewcheck analyse --json)
  reviews: new Map(),   // game key -> the review (crewcheck review --json)
  job: null,         // {id, key, kind}: the job being polled
  pending: null,     // the key of the position whose verdicts are being asked for
  seq: 0,            // bumps on every position shown: answers for older ones are dropped
  missions: [],
  meta: {},          // the deal's name and comment (kept in downloads)
  stopped: null,     // the key of the position whose analysis was stopped
  explain: new Map(),   // history key -> the board's words for its analysis
  partial: null,     // {key, position, cards}: the verdicts found so far by the running analysis
};

// one job per tab: the server keys jobs by the cookie and this id
const TAB = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
const seatName = (seat) => `seat ${seat + 1}`;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role") node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

const key = (cards) => cards.join(" ");
const suitOf = (card) => card.replace(/[0-9]+$/, "");
const MARK = { winnable: "✓", unwinnable: "✗", unknown: "?", thinking: "…" };
const SAYS = { winnable: "keeps the game winnable", unwinnable: "the game can no longer be won after it",
               unknown: "not decided", thinking: "being decided" };

async function call(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method, headers: body ? { "Content-Type": "application/json", "X-Crewcheck-Tab": TAB } : { "X-Crewcheck-Tab": TAB },
      body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
    });
  } catch (e) {
    return { status: 0, data: { error: { line: "the server does not answer (is crewcheck serve running?)" } } };
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: { line: `HTTP ${response.status}` } }; }
  return { status: response.status, data };
}

function clearErrors() { for (const e of $$(".error")) e.textContent = ""; }

// a link or deal that cannot be opened: the message where the verdict goes, no board, and
// every control of the board disabled (there is no position to act on)
function broken(err) {
  S.layout = null;
  S.history = [];
  S.future = [];
  $("#title").textContent = "This board cannot be shown";
  $("#rules").replaceChildren();
  $("#table").replaceChildren();
  $("#moves").replaceChildren();
  const p = $("#position");
  p.className = "v-unwinnable";
  p.textContent = `The link cannot be opened: ${err.line || err.message}. Deal a new game above.`;
  for (const b of $$("#side button")) b.disabled = true;
  $("#reason-list").replaceChildren();
  $("#card-reason").textContent = $("#choice").textContent = "";
  $("#stopped").hidden = true;
  stopThinking();
  $("#games").open = true;
}

function showError(err) {
  const input = err.input || "";
  const target = $(`.error[data-for="${input}"]`) || (input.startsWith("game") ? $('.error[data-for="game"]')
    : $('.error[data-for="deal"]'));
  target.textContent = err.line || err.message;
  if (input.startsWith("game") || input === "json") $("#games").open = true;
}

// -- the address ----------------------------------------------------------------------
function b64encode(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function b64decode(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

function address() {
  const q = new URLSearchParams();
  if (S.game) for (const [k, v] of Object.entries(S.game.params)) { if (v !== "" && v !== null) q.set(k, v); }
  else q.set("deal", b64encode(JSON.stringify(S.base)));
  // card names are letters and digits: the cards read as they are, commas unescaped
  const play = S.history.length ? `&play=${S.history.join(",")}` : "";
  return `${location.pathname}?${q.toString()}${play}`;
}

function remember(push) {
  const url = address();
  if (url === location.pathname + location.search) return;
  const state = { history: S.history, future: S.future };
  if (push) window.history.pushState(state, "", url); else window.history.replaceState(state, "", url);
}

// -- games ----------------------------------------------------------------------------
function withoutHistory(deal) {
  const out = {};
  for (const [k, v] of Object.entries(deal)) if (k !== "played" && k !== "current" && k !== "id") out[k] = v;
  return out;
}

async function newGame(params, history, future, push) {
  clearErrors();
  const { status, data } = await call("POST", "/api/new", params);
  if (status !== 200) { showError(data.error); if (!S.layout) broken(data.error); return false; }
  const base = withoutHistory(data.game.deal);
  const same = S.base && JSON.stringify(base) === JSON.stringify(S.base);
  S.game = data.game;
  S.base = base;
  S.meta = { name: data.game.deal.name, comment: data.game.deal.comment };
  fillPicker(data.game);
  return same ? go(history || [], future || [], push) : start(history || [], future || [], push);
}

async function fileGame(deal, history, push) {
  clearErrors();
  const { status, data } = await call("POST", "/api/deal", { deal });
  if (status !== 200) { showError(data.error); if (!S.layout) broken(data.error); return false; }
  const base = withoutHistory(data.layout.deal);
  const same = S.base && JSON.stringify(base) === JSON.stringify(S.base);
  S.game = null;
  S.base = base;
  let parsed = deal;
  try { if (typeof deal === "string") parsed = JSON.parse(deal); } catch (e) { parsed = {}; }
  S.meta = { name: parsed && parsed.name, comment: parsed && parsed.comment };
  return same ? go(history || data.layout.history, [], push) : start(history || data.layout.history, [], push);
}

async function start(history, future, push) {
  S.verdicts.clear();
  S.explain.clear();
  S.reviews.clear();
  $("#review-summary").textContent = "";
  $("#review-summary").className = "";
  return go(history, future, push);
}

function fillPicker(game) {
  // the picker shows the game on the board (a link may have dealt it)
  const form = $(`#tab-${game.params.game}`);
  if (!form) return;
  for (const [k, v] of Object.entries(game.params)) if (form.elements[k]) form.elements[k].value = String(v);
  if (game.params.game === "deepsea" && game.options) {
    form.elements.owners.replaceChildren(...game.options.map((o, i) => el("option", { value: String(i), text: o })));
    form.elements.owners.value = String(game.params.owners);
  }
  selectTab(game.params.game);
}

function selectTab(name) {
  for (const t of $$(".tab")) {
    const on = t.dataset.tab === name;
    t.classList.toggle("active", on);
    t.setAttribute("aria-selected", String(on));
  }
  for (const p of $$(".tab-panel")) p.hidden = p.id !== `tab-${name}`;
}

function formParams(form) {
  const out = { game: form.dataset.game };
  for (const e of form.elements) if (e.name) out[e.name] = e.type === "number" ? Number(e.value) : e.value;
  return out;
}

// -- positions ------------------------------------------------------------------------
async function go(history, future, push) {
  const seq = ++S.seq;
  const { status, data } = await call("POST", "/api/deal", { deal: S.base, history });
  if (seq !== S.seq) return false;
  if (status !== 200) {
    const m = /^history\[(\d+)\]/.exec(data.error.field || "");
    showError({ ...data.error, input: "deal" });
    if (m) return go(history.slice(0, Number(m[1])), [], false);  // keep the legal part of a link
    return false;
  }
  S.history = history;
  S.future = future;
  S.layout = data.layout;
  S.stopped = null;
  remember(push);
  const asking = !S.layout.over && !S.verdicts.has(key(history));
  S.pending = asking ? key(history) : null;
  draw();
  if (asking) ask("analyse", history, seq);
  else stopThinking();
  return true;
}

function play(card) {
  if (!S.layout || !S.layout.legal.includes(card)) return;
  const future = S.future[0] === card ? S.future.slice(1) : [];
  go([...S.history, card], future, true);
}

function timeline() { return [...S.history, ...S.future]; }

function jump(n) {
  if (!S.layout) return;
  const all = timeline();
  n = Math.max(0, Math.min(all.length, n));
  if (n === S.history.length) return;
  go(all.slice(0, n), all.slice(n), true);
}

// -- the engine -----------------------------------------------------------------------
async function ask(kind, history, seq) {
  const what = kind === "review" ? "reviewing the game" : "deciding every card";
  showThinking(what, 0);
  const { status, data } = await call("POST", "/api/jobs", { kind, deal: S.base, history, replace: true });
  if (seq !== S.seq && kind !== "review") return;
  if (status === 429) { setTimeout(() => { if (seq === S.seq) ask(kind, history, seq); }, 300); return; }
  if (status !== 202) { stopThinking(); S.pending = null; showError(data.error); draw(); return; }
  S.job = { id: data.id, key: key(history), kind };
  poll(S.job, seq, 30);
}

async function poll(job, seq, delay) {
  const { status, data } = await call("GET", `/api/jobs/${job.id}`);
  if (S.job !== job) return;  // replaced by a newer question
  if (status !== 200) { stopThinking(); showError(data.error); S.job = null; return; }
  if (data.state === "queued" || data.state === "running") {
    const p = data.progress;
    const now = p.what ? ` (${seatWords(p.what)})` : "";
    const step = p.total > 1 ? `, ${p.done} of ${p.total} decisions done${now}` : now;
    showThinking(job.kind === "review" ? "reviewing the game" : "deciding every card", data.elapsed, step);
    if (job.kind === "analyse" && data.partial && job.key === key(S.history)) {
      // each card's verdict as it is found
      const seen = S.partial && S.partial.key === job.key ? Object.keys(S.partial.cards).length : -1;
      S.partial = { key: job.key, ...data.partial };
      if (Object.keys(S.partial.cards).length !== seen) { drawTable(); drawPosition(); }
    }
    setTimeout(() => poll(job, seq, Math.min(150, delay * 1.3)), delay);
    return;
  }
  if (S.partial && S.partial.key === job.key) S.partial = null;
  S.job = null;
  stopThinking();
  if (data.state !== "done" || (job.kind === "analyse" && S.pending === job.key)) S.pending = null;
  if (data.state === "error") { showError(data.error); draw(); return; }
  if (data.state === "cancelled") {
    if (job.kind === "analyse") S.stopped = job.key;
    else S.stopped = `review:${job.key}`;
    draw();
    return;
  }
  if (job.kind === "analyse") {
    S.verdicts.set(job.key, data.result.analyse);
    S.explain.set(job.key, data.result.explain);
    if (job.key === key(S.history)) draw();
  }
  else {
    S.reviews.set(job.key, data.result.review);
    draw();
    // the review replaced the question about this position: ask it again
    if (!S.layout.over && !S.verdicts.has(key(S.history))) { S.pending = key(S.history); draw(); ask("analyse", S.history, S.seq); }
  }
}

function showThinking(what, seconds, step) {
  $("#thinking").hidden = false;
  $("#thinking-text").textContent = `${what}: ${seconds.toFixed(1)} s${step || ""}`;
}

function stopThinking() { $("#thinking").hidden = true; }

// the server's words name seats from 0 in progress lines ("after B6" has none): from 1 here
function seatWords(text) { return String(text).replace(/\bseat (\d+)/g, (m, n) => `seat ${Number(n) + 1}`); }

function analyseAgain() {
  if (!S.layout || S.layout.over) return;
  const review = S.stopped && S.stopped.startsWith("review:");
  S.stopped = null;
  if (review) { ++S.seq; ask("review", timeline(), S.seq); return; }
  S.pending = key(S.history);
  draw();
  ask("analyse", S.history, S.seq);
}

async function cancel() {
  const job = S.job;
  if (!job) return;
  await call("POST", `/api/jobs/${job.id}/cancel`, {});
}

// -- drawing --------------------------------------------------------------------------
function partialOf(card) {
  const p = S.partial;
  return p && p.key === key(S.history) && S.pending === p.key ? p.cards[card] : undefined;
}

function verdictOf(card) {
  const a = S.verdicts.get(key(S.history));
  const early = partialOf(card);
  if (!a && early) return early.verdict;
  if (!a) return S.pending === key(S.history) ? "thinking" : "unknown";
  const c = a.cards.find((x) => x.cards.includes(card));
  return c ? c.verdict : "unknown";
}

function reasonOf(card) {
  // the server's reason for the card's class (the command line's analyse reason, in words)
  const a = S.verdicts.get(key(S.history));
  const words = S.explain.get(key(S.history));
  const early = partialOf(card);
  if (!a && early) return early.reason;
  if (!a || !words) return null;
  const i = a.cards.findIndex((x) => x.cards.includes(card));
  return i < 0 ? null : words.cards[i];
}

function cardFace(card, extra) {
  return el("span", { class: `face suit-${suitOf(card)} ${extra || ""}`, text: card });
}

const TASK_MARK = { done: "✓ ", failed: "✗ ", open: "" };
const TASK_SAYS = { done: "task done", failed: "task failed", open: "task open" };

function taskChip(t) {
  const status = t.status || (t.done ? "done" : "open");
  const token = t.token ? ` [${t.token}]` : "";
  const by = t.won_by !== null && t.won_by !== undefined ? `, won by ${seatName(t.won_by)}` : "";
  return el("span", { class: `task ${status}`, "data-task": t.card, "data-status": status,
                      title: `${t.card}: ${TASK_SAYS[status]}${by}` },
            TASK_MARK[status], cardFace(t.card), token);
}

function scoreLine(seat) {
  const s = seat.score;
  if (!s) return null;
  const tasks = s.tasks ? `; tasks: ${s.tasks} held, ${s.done} done, ${s.failed} failed` : "";
  return el("div", { class: "score", "data-score": String(seat.seat) },
            `Tricks won: ${s.tricks}${tasks}`);
}

function showReason(card) {
  const why = reasonOf(card);
  const v = verdictOf(card);
  $("#card-reason").className = `small v-${v}`;
  $("#card-reason").textContent = why ? `${MARK[v]} ${card}: ${why}` : `${card}: ${SAYS[v]}`;
}

function seatBox(seat) {
  const L = S.layout;
  const commander = L.deal.lead === "rocket" && seat.seat === L.first_leader;
  const toPlay = L.to_play === seat.seat || (L.to_play === null && !L.over);
  const owned = L.tasks.filter((t) => t.seat === seat.seat || (t.seat === null && t.taken_by === seat.seat));
  const head = el("h3", {}, `Seat ${seat.seat + 1}`, commander ? el("span", { class: "tag", text: "commander" }) : null,
                  L.to_play === seat.seat && !L.over ? el("span", { class: "tag turn", text: "to play" }) : null);
  const tasks = el("div", { class: "tasks" }, owned.length ? "Tasks: " : null, ...owned.map(taskChip));
  const hand = el("div", { class: "hand", role: "group", "aria-label": `${seatName(seat.seat)}'s hand` });
  const taskCards = new Set(L.tasks.map((t) => t.card));
  for (const suit of seat.suits) {
    const held = suit.cards.filter((c) => c.held);
    if (!held.length) continue;
    const row = el("span", { class: "suit-row" });
    for (const c of held) {
      const legal = L.legal.includes(c.card);
      const task = taskCards.has(c.card) ? "★" : "";
      if (legal) {
        const v = verdictOf(c.card);
        const why = reasonOf(c.card);
        const says = why || SAYS[v];
        const b = el("button", { type: "button", class: `card suit-${suitOf(c.card)} v-${v}`, "data-card": c.card,
                                 "data-verdict": v, "data-reason": why || "",
                                 "aria-label": `play ${c.card}${task ? " (a task card)" : ""}: ${says}`,
                                 title: `${c.card}: ${says}` },
                     el("span", { class: "name", text: c.card + task }), el("span", { class: "mark", text: MARK[v], "aria-hidden": "true" }));
        b.addEventListener("click", () => play(c.card));
        b.addEventListener("mouseenter", () => showReason(c.card));
        b.addEventListener("focus", () => showReason(c.card));
        row.append(b);
      } else {
        row.append(el("span", { class: `card suit-${suitOf(c.card)} idle`, "data-card": c.card,
                                title: task ? `${c.card}: a task card` : c.card, text: c.card + task }));
      }
    }
    hand.append(row);
  }
  return el("div", { class: `seat ${toPlay ? "active" : ""}`, "data-seat": String(seat.seat) },
            head, scoreLine(seat), tasks, hand);
}

function draftNote(t) {
  // who takes an open task in the winning line shown, and which other seats could in some winning line
  const a = S.verdicts.get(key(S.history));
  const words = S.explain.get(key(S.history));
  const line = words && words.takes ? words.takes[t.card] : undefined;
  const seats = a && a.tasks ? a.tasks.find((x) => x.card === t.card) : null;
  const parts = [];
  if (line !== undefined) parts.push(`winning line: ${seatName(line)} takes it`);
  if (seats && !seats.seats.length) parts.push("no seat can take it in a winning line");
  const others = seats ? seats.seats.filter((s) => s !== line) : [];
  if (others.length) parts.push(`${others.map(seatName).join(", ")} could too`);
  return parts.length ? ` (${parts.join("; ")}) ` : " ";
}

function trickBox() {
  const L = S.layout;
  const box = el("div", { class: "trick", "aria-live": "polite" });
  let shown = L.current;
  let last = null;
  if (!shown && L.tricks.length) { shown = L.tricks[L.tricks.length - 1]; last = shown; }
  // the trick in progress is trick L.trick (the panel's number too); the last one shown whole is the one before
  const number = last ? L.tricks.length : L.trick;
  box.append(el("div", { class: "small trick-label", text: `Trick ${number}` }));
  if (shown) {
    const cards = el("div", { class: "trick-cards" });
    shown.cards.forEach((c, i) => cards.append(el("div", { class: "played" },
      el("div", { class: "small", text: seatName((shown.lead + i) % L.players) }), cardFace(c))));
    box.append(cards);
    if (last) box.append(el("div", { class: "small", text: L.over ? `won by ${seatName(last.winner)}; the game is over`
      : `won by ${seatName(last.winner)}, who leads trick ${L.trick}` }));
  } else {
    box.append(el("div", { class: "small", text: L.to_play === null ? "any seat may lead" : `${seatName(L.to_play)} leads` }));
  }
  const open = L.tasks.filter((t) => t.seat === null && t.taken_by === null && t.status !== "failed");
  if (open.length && !L.over) {
    box.append(el("div", { class: "open-tasks" }, "Tasks to draft: ",
      ...open.map((t) => el("span", { class: "draft", "data-task": t.card }, taskChip(t), draftNote(t)))));
  }
  return box;
}

const PLACES = { 2: [["bottom", 0], ["top", 1]], 3: [["bottom", 0], ["top", 1], ["top", 2]],
                 4: [["bottom", 0], ["left", 1], ["top", 2], ["right", 3]],
                 5: [["bottom", 0], ["left", 1], ["top", 2], ["top", 3], ["right", 4]] };

function drawTable() {
  const L = S.layout;
  const places = { top: el("div", { class: "place top" }), left: el("div", { class: "place left" }),
                   right: el("div", { class: "place right" }), bottom: el("div", { class: "place bottom" }) };
  const where = PLACES[L.players] || L.seats.map((s) => ["top", s.seat]);
  for (const [place, seat] of where) places[place].append(seatBox(L.seats[seat]));
  const middle = el("div", { class: "place middle" }, trickBox());
  $("#table").replaceChildren(el("div", { class: `ring p${L.players}` }, places.top, places.left, middle,
                                   places.right, places.bottom));
}

function drawRules() {
  const L = S.layout;
  const game = S.game;
  $("#title").textContent = game ? game.title : (S.meta.name || L.deal.name || "A deal file");
  const lines = [];
  const trump = L.trump ? `trump ${L.trump}` : "no trump";
  lines.push(el("p", { class: "small", text: `${L.players} players, ${trump}; ${L.rules_words || L.rules}` +
    (L.deal.lead === "rocket" ? `; the commander (${seatName(L.first_leader)}, holding the top rocket) leads` : "") }));
  if (game && game.rule) lines.push(el("p", { class: "rule", text: game.rule }));
  if (game && game.reading) lines.push(el("p", { class: "small reading", text: `Note: ${game.reading}` }));
  if (L.conditions.length) lines.push(el("ul", { class: "conditions" }, ...L.conditions.map((c) => el("li", { text: c }))));
  if (game && game.notes.length) lines.push(el("p", { class: "small", text: `Not modelled: ${game.notes.join("; ")}` }));
  $("#rules").replaceChildren(...lines);
}

function drawPosition() {
  const L = S.layout;
  const p = $("#position");
  const a = S.verdicts.get(key(S.history));
  const words = S.explain.get(key(S.history));
  if (L.over) {
    p.className = L.won ? "v-winnable" : "v-unwinnable";
    p.textContent = `${L.won ? "✓ Won" : "✗ Lost"}: ${L.over_words || L.over.replace(/^(won|lost): /, "")}`;
    return;
  }
  const who = L.to_play === null ? "any seat leads" : `${seatName(L.to_play)} to play`;
  const early = S.partial && S.partial.key === key(S.history) && S.pending === S.partial.key ? S.partial : null;
  if (!a && early && early.position) {
    // the position's verdict first, then each card's
    const found = Object.keys(early.cards).length;
    const total = L.legal.length;
    p.className = `v-${early.position}`;
    p.textContent = `${MARK[early.position]} ${early.position === "winnable" ? "Winnable" : early.position === "unwinnable"
      ? "Cannot be won any more" : "Undecided"}. Trick ${L.trick}, ${who}: ${found} of ${total} cards decided so far.`;
    return;
  }
  if (!a) { p.className = ""; p.textContent = `Trick ${L.trick}, ${who}.`; return; }
  const total = a.cards.reduce((n, c) => n + c.cards.length, 0);
  const kept = a.cards.filter((c) => c.verdict === "winnable").reduce((n, c) => n + c.cards.length, 0);
  const why = words && words.position ? ` (why: ${words.position})` : "";
  p.className = `v-${a.verdict}`;
  p.textContent = a.verdict === "winnable" ? `✓ Winnable. Trick ${L.trick}, ${who}: ${kept} of ${total} cards keep it winnable.`
    : a.verdict === "unwinnable" ? `✗ Cannot be won any more${why}. Trick ${L.trick}, ${who}.`
    : `? Undecided. Trick ${L.trick}, ${who}.`;
}

function drawReasons() {
  // every card class's reason, for a tap as well as hover or focus; the choice the line makes
  const a = S.verdicts.get(key(S.history));
  const words = S.explain.get(key(S.history));
  const list = $("#reason-list");
  list.replaceChildren();
  $("#card-reason").textContent = "";
  $("#choice").textContent = words && words.choice && !S.layout.over ? `The winning line's choice: ${words.choice}` : "";
  $("#reasons").hidden = !a || !words || !!S.layout.over;
  if (!a || !words) return;
  a.cards.forEach((c, i) => list.append(el("li", { class: `v-${c.verdict}`, "data-cards": c.cards.join(" ") },
    `${MARK[c.verdict]} ${c.cards.join(" = ")}: ${words.cards[i]}`)));
}

function drawStopped() {
  const here = key(S.history);
  const stopped = S.layout && !S.layout.over && (S.stopped === here || S.stopped === `review:${key(timeline())}`);
  $("#stopped").hidden = !stopped;
  if (stopped) {
    $("#stopped-text").textContent = S.stopped.startsWith("review:") ? "Stopped: the review was cancelled."
      : "Stopped: the verdicts of this position were not computed.";
  }
}

function drawMoves() {
  const L = S.layout;
  const all = timeline();
  const review = S.reviews.get(key(all)) || S.reviews.get(key(S.history));
  const lost = review && review.losing ? review.losing.index : -1;
  const list = $("#moves");
  list.replaceChildren();
  const p = L.players;
  // trick boundaries along the whole timeline: the layout knows the leads of the played part
  const leads = [...L.tricks.map((t) => t.lead), ...(L.current ? [L.current.lead] : [])];
  for (let first = 0, n = 0; first < all.length || n === 0; first += p, n++) {
    if (first >= all.length && n > 0) break;
    const cards = all.slice(first, first + p);
    const jumpTo = el("button", { type: "button", class: "trick-jump", text: `${n + 1}.`,
                                  title: `the position after trick ${n + 1}` });
    jumpTo.addEventListener("click", () => jump(first + cards.length));
    const item = el("li", { "data-trick": String(n + 1) }, jumpTo,
                    leads[n] !== undefined ? el("span", { class: "small", text: ` ${seatName(leads[n])}: ` }) : " ");
    cards.forEach((c, i) => {
      const at = first + i;
      const cls = `move ${at < S.history.length ? "done" : "ahead"} ${at === S.history.length - 1 ? "current" : ""} ${at === lost ? "lost" : ""}`;
      const b = el("button", { type: "button", class: cls, "data-index": String(at),
                               title: at === lost ? "after this card the game could no longer be won" : `the position after ${c}` },
                   cardFace(c), at === lost ? el("span", { class: "mark", text: " ✗ lost here" }) : null);
      b.addEventListener("click", () => jump(at + 1));
      item.append(b);
    });
    const trick = L.tricks[n];
    if (trick) {
      // the trick's winner and the tasks done or failed in it
      const tasks = L.tasks.filter((t) => trick.cards.includes(t.card) && t.status !== "open");
      item.append(el("span", { class: "small trick-result", "data-winner": String(trick.winner) },
        ` → ${seatName(trick.winner)}`, ...tasks.map((t) => el("span", { class: `task ${t.status}` }, ` ${TASK_MARK[t.status]}${t.card}`))));
    }
    list.append(item);
    if (!all.length) break;
  }
  if (!all.length) list.replaceChildren(el("li", { class: "small", text: "no card played yet" }));
}

function drawReview() {
  const r = S.reviews.get(key(timeline())) || S.reviews.get(key(S.history));
  const box = $("#review-summary");
  if (!r) { box.textContent = ""; box.className = ""; return; }
  box.className = r.losing || r.start === "unwinnable" ? "v-unwinnable" : "v-winnable";
  box.textContent = (r.losing || r.start === "unwinnable" ? "✗ " : "✓ ") + (r.words || r.summary) +
    (r.losing ? ` (click the card before it to see every card's verdict there)` : "");
}

function drawButtons() {
  for (const b of $$("#side button")) b.disabled = false;
  const a = S.verdicts.get(key(S.history));
  const line = a && a.position.next && a.position.next.length ? a.position.next : null;
  $("#undo").disabled = $("#start").disabled = S.history.length === 0;
  $("#redo").disabled = $("#end").disabled = S.future.length === 0;
  $("#hint").disabled = $("#line").disabled = !line || !!S.layout.over;
  $("#review").disabled = timeline().length === 0;
  $("#review").textContent = `Review the game (${timeline().length} cards)`;
}

function draw() {
  if (!S.layout) return;  // a board that cannot be shown (see broken)
  drawRules();
  drawTable();
  drawPosition();
  drawMoves();
  drawReview();
  drawReasons();
  drawStopped();
  drawButtons();
}

// -- controls -------------------------------------------------------------------------
function winningLine() {
  const a = S.verdicts.get(key(S.history));
  return a && a.position.next ? a.position.next : [];
}

function fileName() {
  // after the deal: its name, else the game's title ("Mission 1, 4 players, seed 0" -> mission-1-4-players-seed-0)
  const name = S.meta.name || (S.game ? S.game.title : "") || "deal";
  return String(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "deal";
}

function download() {
  if (!S.layout) return;
  const deal = { ...(S.meta.name ? { name: S.meta.name } : {}), ...(S.meta.comment ? { comment: S.meta.comment } : {}),
                 ...S.layout.deal };
  const blob = new Blob([JSON.stringify(deal, null, 2) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: `${fileName()}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function loadExamples() {
  const { data } = await call("GET", "/api/examples");
  for (const e of data.examples || []) $("#example").append(el("option", { value: e.name, text: e.name, title: e.comment }));
}

async function loadMissions() {
  const { data } = await call("GET", "/api/missions");
  S.missions = data.missions || [];
  const select = $("#mission");
  for (const m of S.missions) {
    const tasks = m.tasks ? `${m.tasks} task${m.tasks === 1 ? "" : "s"}` : "no task cards";
    const rule = m.rule ? `: ${m.rule.length > 50 ? m.rule.slice(0, 48) + "…" : m.rule}` : "";
    select.append(el("option", { value: String(m.number), text: `${m.number}. ${tasks}${rule}` }));
  }
  showMissionRule();
}

function showMissionRule() {
  const m = S.missions.find((x) => String(x.number) === $("#mission").value);
  if (!m) return;
  const extra = [m.assignment ? `tasks ${m.assignment}` : null, m.tokens.length ? `tokens ${m.tokens.join(" ")}` : null,
                 `players ${m.players.join("/")}`, m.communication ? `communication: ${m.communication}` : null];
  $("#mission-rule").textContent = `${m.rule || "No special rule."} (${extra.filter(Boolean).join("; ")})`;
}

async function fromAddress(push) {
  const q = new URLSearchParams(location.search);
  const history = (q.get("play") || "").split(",").map((c) => c.trim().toUpperCase()).filter(Boolean);
  const state = window.history.state;
  const future = state && key(state.history) === key(history) ? state.future : [];
  if (q.has("deal")) {
    let deal;
    try { deal = JSON.parse(b64decode(q.get("deal"))); } catch (e) {
      const err = { input: "deal", line: "the link's deal cannot be read (cut short?)" };
      showError(err);
      broken(err);
      return;
    }
    if (!S.game && S.base && q.get("deal") === b64encode(JSON.stringify(S.base))) { await go(history, future, false); return; }
    await fileGame(deal, history, push);
    if (future.length) S.future = future;
    return;
  }
  const params = { game: q.get("game") || "mission" };
  for (const [k, v] of q.entries()) if (k !== "play" && k !== "game") params[k] = v;
  if (!q.has("game")) Object.assign(params, { mission: 1, players: 4, seed: 0 });
  const sameGame = S.game && Object.entries(params).every(([k, v]) => String(S.game.params[k] ?? "") === String(v));
  if (sameGame && S.base) { await go(history, future, false); return; }
  await newGame(params, history, future, push);
}

function resetOwners(form) {
  form.elements.owners.replaceChildren(el("option", { value: "0", text: "first way (deal to see the others)" }));
  form.elements.owners.value = "0";
}

function wire() {
  for (const t of $$(".tab")) t.addEventListener("click", () => selectTab(t.dataset.tab));
  for (const form of $$(".tab-panel[data-game]")) {
    form.addEventListener("submit", (e) => { e.preventDefault(); $("#games").open = false; newGame(formParams(form), [], [], true); });
  }
  for (const b of $$(".reseed")) b.addEventListener("click", () => {
    const form = b.closest("form");
    form.elements.seed.value = String(Math.floor(Math.random() * 1e9));
    if (form.elements.owners) resetOwners(form);
  });
  // Deep Sea: the ways to hand out the tasks belong to one seed; a new seed starts from the first
  for (const name of ["seed", "cards"]) $("#tab-deepsea").elements[name].addEventListener("input", () => resetOwners($("#tab-deepsea")));
  $("#mission").addEventListener("change", showMissionRule);
  $("#tab-file").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await fileGame($("#deal-json").value, null, true)) $("#games").open = false;
  });
  $("#example").addEventListener("change", async () => {
    const name = $("#example").value;
    if (!name) return;
    const got = await call("GET", `/api/examples/${encodeURIComponent(name)}`);
    if (got.status !== 200) { showError(got.data.error); return; }
    $("#deal-json").value = got.data.text;
  });
  $("#upload").addEventListener("change", async () => {
    const file = $("#upload").files[0];
    if (!file) return;
    if (file.size > 60000) { showError({ input: "json", line: `${file.name}: too large for a deal file` }); return; }
    $("#deal-json").value = await file.text();
  });
  $("#undo").addEventListener("click", () => jump(S.history.length - 1));
  $("#redo").addEventListener("click", () => jump(S.history.length + 1));
  $("#start").addEventListener("click", () => jump(0));
  $("#end").addEventListener("click", () => jump(timeline().length));
  $("#hint").addEventListener("click", () => { const line = winningLine(); if (line.length) play(line[0]); });
  $("#line").addEventListener("click", () => {
    const line = winningLine();
    if (!line.length) return;
    S.future = line;
    jump(S.history.length + 1);
  });
  $("#review").addEventListener("click", () => { if (S.layout) { ++S.seq; ask("review", timeline(), S.seq); } });
  $("#cancel").addEventListener("click", cancel);
  $("#again").addEventListener("click", analyseAgain);
  $("#download").addEventListener("click", download);
  $("#copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("#copy-link").textContent = "Link copied"; }
    catch (e) { window.prompt("The link to this position:", location.href); }
    setTimeout(() => { $("#copy-link").textContent = "Copy link"; }, 1500);
  });
  window.addEventListener("popstate", () => fromAddress(false));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const actions = { ArrowLeft: "#undo", ArrowRight: "#redo", Home: "#start", End: "#end", w: "#hint" };
    const b = actions[e.key] && $(actions[e.key]);
    if (b && !b.disabled) { e.preventDefault(); b.click(); }
  });
}

wire();
loadExamples();
loadMissions().then(() => fromAddress(false));

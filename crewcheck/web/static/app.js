// crewcheck serve: the board. The server deals, lays out each position (whose turn, the
// legal cards, the tricks) and decides; this file only draws its answers and keeps the
// moves: the cards played (`history`) and the cards taken back (`future`, for redo).
// The position lives in the address: `?game=mission&mission=1&...&play=B3,B4` or
// `?deal=<base64url of the deal file>&play=...`, with the variations (`var=`, one full line
// each) and practice (`practice=1`), so a link opens the same board and the back button
// steps back through the positions shown. A deal made on the board (the set-up, `-chosen`,
// or mission 12's draw, `-drawn`) keeps its name and comment in the deal, what made it
// (`made=chosen|drawn`), the address it came from (`from=`) and whether the draw follows
// its first trick (`draw=1`).
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
  meta: {},          // the deal's name and comment (kept in downloads and links); made, from, draw: what made it
  arriving: null,    // the variations a link brings, kept when its game is dealt
  stopped: null,     // the key of the position whose analysis was stopped
  explain: new Map(),   // history key -> the board's words for its analysis
  partial: null,     // {key, position, cards}: the verdicts found so far by the running analysis
  setup: { picks: {}, draft: [], step: null },  // the crew's choices made on the board before the first card
  variations: [],    // other lines of this game (full card lists), kept when a different card was played
  draw: null,        // mission 12's draw after the first trick: {key, cards, step}
  compare: new Map(),   // history key -> the other reading's verdict of the position (where the readings differ)
};

// one job per tab: the server keys jobs by the cookie and this id
const TAB = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
// JARVIS (the two-player game's third seat, whose cards the commander plays) by its name
const seatName = (seat) => S.layout && S.layout.jarvis && S.layout.jarvis.seat === seat ? `JARVIS (seat ${seat + 1})` : `seat ${seat + 1}`;

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
const MARK = { winnable: "✓", unwinnable: "✗", unknown: "?", thinking: "…", hidden: "" };
const SAYS = { winnable: "keeps the game winnable", unwinnable: "the game can no longer be won after it",
               unknown: "not decided", thinking: "being decided", hidden: "hidden until you play (practice)" };

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

function linkDeal() {
  // the deal of a link: the deal file with its name and comment (the board's title and origin)
  return { ...(S.meta.name ? { name: S.meta.name } : {}), ...(S.meta.comment ? { comment: S.meta.comment } : {}), ...S.base };
}

function address() {
  const q = new URLSearchParams();
  if (S.game) for (const [k, v] of Object.entries(S.game.params)) { if (v !== "" && v !== null) q.set(k, v); }
  else {
    q.set("deal", b64encode(JSON.stringify(linkDeal())));
    if (S.meta.made) q.set("made", S.meta.made);
    if (S.meta.from) q.set("from", S.meta.from);
    if (S.meta.draw) q.set("draw", "1");
  }
  if (practising()) q.set("practice", "1");
  // card names are letters and digits: the cards read as they are, commas unescaped
  const play = S.history.length ? `&play=${S.history.join(",")}` : "";
  const lines = S.variations.map((line) => `&var=${line.join(",")}`).join("");
  return `${location.pathname}?${q.toString()}${play}${lines}`;
}

const BOARD_KEYS = ["play", "var", "practice", "made", "from", "draw"];
// the address's keys that are the board's, not the game's parameters

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

async function fileGame(deal, history, push, made) {
  clearErrors();
  const { status, data } = await call("POST", "/api/deal", { deal });
  if (status !== 200) { showError(data.error); if (!S.layout) broken(data.error); return false; }
  const base = withoutHistory(data.layout.deal);
  const same = S.base && JSON.stringify(base) === JSON.stringify(S.base);
  S.game = null;
  S.base = base;
  let parsed = deal;
  try { if (typeof deal === "string") parsed = JSON.parse(deal); } catch (e) { parsed = {}; }
  S.meta = { name: parsed && parsed.name, comment: parsed && parsed.comment, ...(made || {}) };
  return same ? go(history || data.layout.history, [], push) : start(history || data.layout.history, [], push);
}

async function start(history, future, push) {
  S.setup = { picks: {}, draft: [], step: null };
  S.variations = S.arriving || [];
  S.arriving = null;
  S.draw = null;
  S.compare.clear();
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
  // one request per move: the job that decides the position also lays it out; a position
  // whose verdicts are known (or a server with no room for a job) is only laid out
  const seq = ++S.seq;
  const asking = !S.verdicts.has(key(history));
  let got = asking ? await call("POST", "/api/jobs", { kind: "analyse", deal: S.base, history, replace: true,
                                                      ...compareWith() })
    : null;
  if (!got || got.status === 429) got = await call("POST", "/api/deal", { deal: S.base, history });
  const { status, data } = got;
  if (seq !== S.seq) return false;
  if (status !== 200 && status !== 202) {
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
  const job = status === 202 && !S.layout.over;
  S.pending = job || (asking && !S.layout.over) ? key(history) : null;
  S.job = null;
  draw();
  if (job) {
    S.job = { id: data.id, key: key(history), kind: "analyse" };
    showThinking("deciding every card", 0);
    poll(S.job, seq, 30);
  } else if (S.pending) ask("analyse", history, seq);  // no room for a job just now: ask again
  else if (setupWanted()) askSetup();
  else if (drawWanted() && !(S.draw && S.draw.key === key(history))) askDraw(randomDraw());
  else stopThinking();
  return true;
}

function play(card) {
  if (!S.layout || !S.layout.legal.includes(card)) return;
  // another card than the one taken back: the line it leaves is kept as a variation
  if (S.future.length && S.future[0] !== card) keepVariation(timeline());
  const future = S.future[0] === card ? S.future.slice(1) : [];
  go([...S.history, card], future, true);
}

// -- variations: the lines left when another card was played, kept as in a game record ---
function keepVariation(line) {
  if (line.length && !S.variations.some((v) => key(v) === key(line))) S.variations.push(line);
}

function enterVariation(line, n) {
  // the position after card n of a variation; the line left becomes a variation in turn
  const here = timeline();
  S.variations = S.variations.filter((v) => key(v) !== key(line));
  keepVariation(here);
  go(line.slice(0, n), line.slice(n), true);
}

// -- the set-up: the crew's choices before the first card, one step at a time --------
function setupWanted() {
  return S.layout && S.layout.setup && !S.history.length && !S.layout.over && !S.setup.step && !S.job;
}

async function askSetup() {
  const seq = S.seq;
  showThinking("deciding each option", 0);
  const { status, data } = await call("POST", "/api/jobs", { kind: "setup", deal: S.base, history: [],
                                                              picks: S.setup.picks, draft: S.setup.draft, replace: true });
  if (seq !== S.seq) return;
  if (status === 429) { setTimeout(() => { if (seq === S.seq) askSetup(); }, 300); return; }
  if (status !== 202) { stopThinking(); S.setup.step = { error: data.error.line || data.error.message, made: [] }; draw(); return; }
  S.job = { id: data.id, key: "", kind: "setup" };
  poll(S.job, seq, 30);
}

function pickSetup(step, value) {
  // a choice made on the board: the next step is asked for, with each of its options decided
  const option = step.options.find((o) => o.value === value);
  S.setup.made = [...(step.made || []), step.step === "draft" ? `${seatName(step.seat)} takes ${value}` : option.made || option.label];
  if (step.step === "draft") S.setup.draft = [...S.setup.draft, value];
  else S.setup.picks = { ...S.setup.picks, [step.step]: value };
  S.setup.step = null;
  draw();
  askSetup();
}

function resetSetup() {
  S.setup = { picks: {}, draft: [], step: null, made: [] };
  draw();
  if (!S.job) askSetup();
}

async function playSetup(setup) {
  // every choice made: the deal with them made is the game played on
  const deal = { ...setup.deal };
  const named = S.meta.name || "deal";
  deal.name = `${named}-chosen`;
  deal.comment = `${S.meta.comment || named}${CHOSEN}${setup.made.join("; ")}.`;
  await fileGame(deal, [], true, { made: "chosen", from: location.search.slice(1), draw: hasDraw() });
}

// the words a deal made on the board carries in its comment, after the comment it came from
const CHOSEN = " Chosen on the board: ";
const DRAWN = " Then the draw: ";

// -- mission 12's draw: right after the first trick each seat draws a card from the crew
// member to its right; the player picks the cards (each option decided) or randomises them
// where the reference reading and the literal one differ, the other reading's deal is
// decided with every position too, and shown beside the board's verdict
function compareWith() { return S.game && S.game.other ? { compare: S.game.other.deal } : {}; }

function hasDraw() { return S.game ? !!S.game.draw : !!S.meta.draw; }

function drawWanted() {
  const L = S.layout;
  return !!L && hasDraw() && S.history.length === L.players && !L.over;
}

function randomDraw() {
  // one card of each seat's hand, uniformly (the card goes to the next seat)
  return S.layout.seats.map((seat) => {
    const held = seat.suits.flatMap((x) => x.cards.filter((c) => c.held).map((c) => c.card));
    return held[Math.floor(Math.random() * held.length)];
  });
}

async function askDraw(cards) {
  const seq = S.seq;
  S.draw = { key: key(S.history), cards, step: null };
  draw();
  showThinking("deciding each card of the draw", 0);
  const { status, data } = await call("POST", "/api/jobs", { kind: "draw", deal: S.base, history: S.history,
                                                              draw: cards, replace: true });
  if (seq !== S.seq) return;
  if (status === 429) { setTimeout(() => { if (seq === S.seq) askDraw(cards); }, 300); return; }
  if (status !== 202) { stopThinking(); S.draw.error = data.error.line || data.error.message; draw(); return; }
  S.job = { id: data.id, key: key(S.history), kind: "draw" };
  poll(S.job, seq, 30);
}

async function playDraw(step) {
  const deal = { ...step.deal };
  const named = S.meta.name || (S.game ? S.game.title : "deal");
  deal.name = `${fileName()}-drawn`;
  const engine = step.engine ? ` (the tasks as the engine's winning line drafts them: ${step.engine})` : "";
  deal.comment = `${S.meta.comment || named}${DRAWN}after the first trick (${S.history.join(" ")})${engine}, ` +
    step.seats.map((x) => `seat ${x.to + 1} draws ${x.card} from seat ${x.seat + 1}`).join(", ") + ".";
  await fileGame(deal, [], true, { made: "drawn", from: location.search.slice(1), draw: false });
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
  const { status, data } = await call("POST", "/api/jobs", { kind, deal: S.base, history, replace: true,
                                                              ...(kind === "analyse" ? compareWith() : {}) });
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
    showThinking({ review: "reviewing the game", setup: "deciding each option", draw: "deciding each card of the draw" }[job.kind]
                 || "deciding every card",
                 data.elapsed, step);
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
  if (data.state === "error" && job.kind === "draw" && S.draw) { S.draw.error = data.error.line || data.error.message; draw(); return; }
  if (data.state === "error" && job.kind === "setup") { S.setup.step = { error: data.error.line || data.error.message, made: [] }; draw(); return; }
  if (data.state === "error") { showError(data.error); draw(); return; }
  if (data.state === "cancelled") {
    if (job.kind === "setup") S.setup.step = { stopped: true, made: [] };
    else if (job.kind === "draw") S.draw = null;
    else if (job.kind === "analyse") S.stopped = job.key;
    else S.stopped = `review:${job.key}`;
    draw();
    return;
  }
  if (job.kind === "draw") {
    if (S.draw && S.draw.key === job.key) { S.draw.step = data.result.draw; draw(); }
    return;
  }
  if (job.kind === "setup") {
    const setup = data.result.setup;
    if (setup && setup.deal) { playSetup(setup); return; }
    S.setup.step = setup;
    draw();
    return;
  }
  if (job.kind === "analyse") {
    S.verdicts.set(job.key, data.result.analyse);
    S.explain.set(job.key, data.result.explain);
    if (data.result.compare) S.compare.set(job.key, data.result.compare);
    if (job.key === key(S.history)) draw();
    if (job.key === "" && setupWanted()) askSetup();
    if (job.key === key(S.history) && drawWanted() && !(S.draw && S.draw.key === job.key)) askDraw(randomDraw());
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
  const lines = q.getAll("var").map((v) => v.split(",").map((c) => c.trim().toUpperCase()).filter(Boolean))
    .filter((line) => line.length);
  $("#practice").checked = q.get("practice") === "1";
  S.variations = lines;  // kept as they are when the game on the board stays, else when it is dealt
  S.arriving = lines;
  try { await openAddress(q, history, future, push); } finally { S.arriving = null; }
}

async function openAddress(q, history, future, push) {
  if (q.has("deal")) {
    let deal;
    try { deal = JSON.parse(b64decode(q.get("deal"))); } catch (e) {
      const err = { input: "deal", line: "the link's deal cannot be read (cut short?)" };
      showError(err);
      broken(err);
      return;
    }
    const made = { made: q.get("made") || null, from: q.get("from") || null, draw: q.get("draw") === "1" };
    if (!S.game && S.base && q.get("deal") === b64encode(JSON.stringify(linkDeal()))) {
      Object.assign(S.meta, made);
      await go(history, future, false);
      return;
    }
    await fileGame(deal, history, push, made);
    if (future.length) S.future = future;
    return;
  }
  const params = { game: q.get("game") || "mission" };
  for (const [k, v] of q.entries()) if (!BOARD_KEYS.includes(k) && k !== "game") params[k] = v;
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
    if (S.future.length && key(S.future) !== key(line)) keepVariation(timeline());
    S.future = line;
    jump(S.history.length + 1);
  });
  $("#review").addEventListener("click", () => { if (S.layout) { ++S.seq; ask("review", timeline(), S.seq); } });
  $("#cancel").addEventListener("click", cancel);
  $("#again").addEventListener("click", analyseAgain);
  $("#download").addEventListener("click", download);
  $("#practice").addEventListener("change", () => { remember(false); draw(); });
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

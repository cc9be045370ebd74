// crewcheck serve: the board's drawing. Draws the server's layout of the position (the
// table, the rules, the trick, each seat's score and tasks), the verdicts and their
// reasons, the move list and the review; the state it reads (S) and the helpers (el, $)
// are app.js's, which this file is loaded before.
"use strict";

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
  const why = practising() ? null : reasonOf(card);
  const v = practising() ? "hidden" : verdictOf(card);
  $("#card-reason").className = `small v-${v}`;
  $("#card-reason").textContent = why ? `${MARK[v]} ${card}: ${why}` : `${card}: ${SAYS[v]}`;
}

function handCard(card, taskCards) {
  // a held card: a button with its verdict when it may be played, else a card to look at
  const L = S.layout;
  const task = taskCards.has(card) ? "★" : "";
  if (!L.legal.includes(card)) {
    return el("span", { class: `card suit-${suitOf(card)} idle`, "data-card": card,
                        title: task ? `${card}: a task card` : card, text: card + task });
  }
  const v = practising() ? "hidden" : verdictOf(card);
  const why = practising() ? null : reasonOf(card);
  const says = why || SAYS[v];
  const b = el("button", { type: "button", class: `card suit-${suitOf(card)} v-${v}`, "data-card": card,
                           "data-verdict": v, "data-reason": why || "",
                           "aria-label": `play ${card}${task ? " (a task card)" : ""}: ${says}`,
                           title: `${card}: ${says}` },
               el("span", { class: "name", text: card + task }), el("span", { class: "mark", text: MARK[v], "aria-hidden": "true" }));
  b.addEventListener("click", () => play(card));
  b.addEventListener("mouseenter", () => showReason(card));
  b.addEventListener("focus", () => showReason(card));
  return b;
}

function columnsOf(seat, taskCards) {
  // JARVIS's columns: the face-up card on top, the card under it face down (shown, all hands
  // being open, but not to be played until the card on it went in an earlier trick)
  const hand = el("div", { class: "hand columns", role: "group", "aria-label": `${seatName(seat.seat)}'s columns` });
  seat.columns.forEach((column, i) => {
    const held = column.filter((c) => c.held);
    if (!held.length) return;
    const box = el("span", { class: "column", "data-column": String(i) });
    for (const c of held) {
      if (c.face_up) { box.append(handCard(c.card, taskCards)); continue; }
      const over = column[column.indexOf(c) - 1];
      const task = taskCards.has(c.card) ? "★" : "";
      box.append(el("span", { class: `card suit-${suitOf(c.card)} idle under`, "data-card": c.card, "data-under": over ? over.card : "",
                              title: `${c.card}${task ? " (a task card)" : ""}: face down under ${over ? over.card : "another card"}; ` +
                                     "it may be played once that card went in an earlier trick",
                              text: c.card + task }));
    }
    hand.append(box);
  });
  return hand;
}

function seatBox(seat) {
  const L = S.layout;
  const commander = L.deal.lead === "rocket" && seat.seat === L.first_leader;
  const jarvis = L.jarvis && L.jarvis.seat === seat.seat;
  const toPlay = L.to_play === seat.seat || (L.to_play === null && !L.over);
  const owned = L.tasks.filter((t) => t.seat === seat.seat || (t.seat === null && t.taken_by === seat.seat));
  const head = el("h3", {}, `Seat ${seat.seat + 1}`, commander ? el("span", { class: "tag", text: "commander" }) : null,
                  jarvis ? el("span", { class: "tag jarvis", text: "JARVIS, played by the commander" }) : null,
                  L.to_play === seat.seat && !L.over ? el("span", { class: "tag turn", text: "to play" }) : null);
  const tasks = el("div", { class: "tasks" }, owned.length ? "Tasks: " : null, ...owned.map(taskChip));
  const taskCards = new Set(L.tasks.map((t) => t.card));
  let hand;
  if (seat.columns && seat.columns.length) hand = columnsOf(seat, taskCards);
  else {
    hand = el("div", { class: "hand", role: "group", "aria-label": `${seatName(seat.seat)}'s hand` });
    for (const suit of seat.suits) {
      const held = suit.cards.filter((c) => c.held);
      if (held.length) hand.append(el("span", { class: "suit-row" }, ...held.map((c) => handCard(c.card, taskCards))));
    }
  }
  return el("div", { class: `seat ${toPlay ? "active" : ""}${jarvis ? " jarvis" : ""}`, "data-seat": String(seat.seat) },
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
    const label = { decision: "Tasks the commander gives to one crew member: ",
                    distribution: "Tasks the commander distributes: " }[L.deal.assignment] || "Tasks to draft: ";
    box.append(el("div", { class: "open-tasks" }, label,
      ...open.map((t) => el("span", { class: "draft", "data-task": t.card }, taskChip(t), draftNote(t)))));
  }
  const setup = setupBox();
  if (setup) box.append(setup);
  const drawn = drawBox();
  if (drawn) box.append(drawn);
  return box;
}

// the set-up as a phase of the game: the crew's choices before the first card (the chosen
// crew member, the tokens, the commander's decision or distribution, the hand-over, then the
// draft card by card, the commander first), one step at a time, each option with its verdict
// and the one the engine's winning line makes marked; until the player picks, the engine chooses
function engineSetup() {
  const words = S.explain.get("");
  const line = words && words.setup;
  if (!line) return null;
  const same = Object.entries(S.setup.picks).every(([k, v]) => line.picks[k] === v)
    && S.setup.draft.every((c, i) => line.draft[i] === c);
  return same ? line : null;
}

function setupBox() {
  const L = S.layout;
  if (S.history.length || !L.setup || L.over) return null;
  const step = S.setup.step;
  const box = el("div", { class: "setup-box", role: "group", "aria-label": "the crew's choices before the first card" },
                 el("div", { class: "small setup-head", text: "Set-up: the crew's choices before the first card" }));
  const made = step && step.made ? step.made : S.setup.made || [];
  if (made.length) box.append(el("div", { class: "small setup-made", text: `Chosen: ${made.join("; ")}.` }));
  if (!step) box.append(el("div", { class: "small", text: "Deciding each option…" }));
  else if (step.error) box.append(el("div", { class: "error setup-error", role: "alert", text: step.error }));
  else if (step.stopped) {
    const again = el("button", { type: "button", id: "setup-again", text: "Decide the options again" });
    again.addEventListener("click", () => { S.setup.step = null; draw(); askSetup(); });
    box.append(el("div", { class: "small", text: "Stopped: the options were not decided. " }, again));
  } else {
    const line = engineSetup();
    const engine = !line ? undefined : step.step === "draft" ? line.draft[S.setup.draft.length] : line.picks[step.step];
    box.append(el("div", { class: "setup-title", text: step.title }));
    const options = el("div", { class: "setup-options" });
    for (const o of step.options) {
      const mine = o.value === engine;
      const says = { winnable: "some way on from it wins", unwinnable: "loses whatever follows", unknown: "not decided" }[o.verdict];
      const b = el("button", { type: "button", class: `setup-option v-${o.verdict}${mine ? " engine" : ""}`,
                               "data-step": step.step, "data-value": o.value, "data-verdict": o.verdict, "data-label": o.label,
                               title: `${o.label}: ${says}${mine ? " (the engine's winning line)" : ""}` },
                   el("span", { class: "mark", text: `${MARK[o.verdict]} `, "aria-hidden": "true" }),
                   step.step === "draft" || o.card ? cardFace(o.label) : o.label, mine ? el("span", { class: "tag", text: "engine's line" }) : null);
      b.addEventListener("click", () => pickSetup(step, o.value));
      options.append(b);
    }
    box.append(options);
  }
  const words = S.explain.get("");
  const choice = words && words.choice ? `its line: ${words.choice}` : "";
  const takes = words && words.takes ? Object.entries(words.takes).map(([c, s]) => `${seatName(s)} takes ${c}`).join(", ") : "";
  const engineText = [choice, takes].filter(Boolean).join("; ");
  box.append(el("div", { class: "small setup-engine" }, "Until you choose, the engine chooses" +
    (engineText ? ` (${engineText})` : "") + " and the cards' verdicts are for its best choice. "));
  if (made.length || S.setup.draft.length || Object.keys(S.setup.picks).length) {
    const restart = el("button", { type: "button", id: "setup-reset", text: "Choose again" });
    restart.addEventListener("click", resetSetup);
    box.append(restart);
  }
  return box;
}

// mission 12's draw after the first trick: the card each seat draws from the seat to its right,
// each option with the verdict of the draw with that card, randomise, then play on after it
function drawBox() {
  if (!drawWanted()) return null;
  const d = S.draw && S.draw.key === key(S.history) ? S.draw : null;
  const box = el("div", { class: "draw-box setup-box", role: "group", "aria-label": "mission 12's draw" },
    el("div", { class: "setup-title", text: "The draw: each seat draws a card from the crew member to its right" }),
    el("div", { class: "small", text: "Pick the cards or randomise them; the cards' verdicts above leave the draw out." }));
  if (d && d.error) { box.append(el("div", { class: "error draw-error", role: "alert", text: d.error })); return box; }
  if (!d || !d.step) { box.append(el("div", { class: "small", text: "Deciding each card of the draw…" })); return box; }
  const step = d.step;
  if (step.engine) {
    box.append(el("div", { class: "small draw-engine", text: "The tasks were left to the engine: the draw takes the " +
      `seats its winning line gives them (${step.engine}).` }));
  }
  for (const x of step.seats) {
    const select = el("select", { "data-seat": String(x.seat), "aria-label": `the card ${seatName(x.to)} draws from ${seatName(x.seat)}` });
    for (const o of x.options) select.append(el("option", { value: o.value, "data-verdict": o.verdict, text: `${o.value} ${MARK[o.verdict]}` }));
    select.value = x.card;
    select.addEventListener("change", () => askDraw(step.seats.map((y) => y.seat === x.seat ? select.value : y.card)));
    box.append(el("label", {}, `${seatName(x.to)} draws from ${seatName(x.seat)}: `, select));
  }
  box.append(el("div", { class: `draw-verdict v-${step.verdict}`, "data-verdict": step.verdict,
    text: `${MARK[step.verdict]} This draw ${step.verdict === "winnable" ? "can be won" : step.verdict === "unwinnable" ? "cannot be won" : "is not decided"}.` }));
  const random = el("button", { type: "button", id: "draw-random", text: "Randomise" });
  random.addEventListener("click", () => askDraw(randomDraw()));
  const play = el("button", { type: "button", id: "draw-play", text: "Play on after this draw", disabled: !step.deal });
  play.addEventListener("click", () => playDraw(step));
  box.append(el("div", { class: "buttons" }, random, play));
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
  const players = L.jarvis ? `${L.players - 1} players and JARVIS` : `${L.players} players`;
  lines.push(el("p", { class: "small", text: `${players}, ${trump}; ${L.rules_words || L.rules}` +
    (L.deal.lead === "rocket" ? `; the commander (${seatName(L.first_leader)}, holding the top rocket) leads` : "") }));
  if (L.jarvis) lines.push(el("p", { class: "small jarvis-note", text: L.jarvis.words }));
  if (game && game.rule) lines.push(el("p", { class: "rule", text: game.rule }));
  if (game && game.reading) lines.push(el("p", { class: "small reading", text: `Note: ${game.reading}` }));
  if (game && game.other) lines.push(readingsBox(game));
  if (!game && S.meta.made) lines.push(originNote());
  if (L.conditions.length) lines.push(el("ul", { class: "conditions" }, ...L.conditions.map((c) => el("li", { text: c }))));
  if (game && game.notes.length) lines.push(el("p", { class: "small", text: `Not modelled: ${game.notes.join("; ")}` }));
  $("#rules").replaceChildren(...lines);
}

// a deal made on the board says so, with what was made and a link back to where it was made
function originNote() {
  const drawn = S.meta.made === "drawn";
  const comment = String(S.meta.comment || "");
  const tail = comment.includes(drawn ? DRAWN : CHOSEN) ? comment.split(drawn ? DRAWN : CHOSEN).pop() : "";
  const says = drawn ? `Dealt after mission 12's draw, made on the board${tail ? `: ${tail}` : "."}`
    : `The set-up was made on the board${tail ? `: ${tail}` : "."}` +
      (S.meta.draw ? " Mission 12's draw follows the first trick." : "");
  const back = S.meta.from ? el("a", { href: `${location.pathname}?${S.meta.from}`, class: "origin-back",
                                       text: drawn ? "Back to the draw" : "Back to the set-up" }) : null;
  return el("p", { class: "small origin", "data-made": S.meta.made }, says, back ? " " : null, back);
}

// practice: the cards' verdicts hidden until a card is played, then that card's verdict
// (from the analysis of the position it was played in) and its reason
function practising() { return $("#practice").checked; }

function drawPractice() {
  const box = $("#practice-result");
  box.hidden = !practising() || !S.history.length;
  if (box.hidden) return;
  const before = S.history.slice(0, -1);
  const card = S.history[S.history.length - 1];
  const a = S.verdicts.get(key(before));
  const words = S.explain.get(key(before));
  const i = a ? a.cards.findIndex((x) => x.cards.includes(card)) : -1;
  if (i < 0) { box.hidden = true; return; }  // played where no verdict was asked for
  const v = a.cards[i].verdict;
  box.className = `v-${v}`;
  box.dataset.verdict = v;
  box.textContent = `Your last card, ${card}: ${MARK[v]} ${v === "winnable" ? "it kept the game winnable"
    : v === "unwinnable" ? "the game could no longer be won after it" : "not decided"}` + (words ? ` (${words.cards[i]})` : "");
}

// the reference reading and the literal one side by side: the other reading's verdict of this
// position, and a button to play the game under it
function readingsBox(game) {
  const here = S.compare.get(key(S.history));
  const mine = S.verdicts.get(key(S.history));
  const says = (v) => v === "winnable" ? "✓ can be won" : v === "unwinnable" ? "✗ cannot be won" : "? not decided";
  const board = S.layout.over ? (S.layout.won ? "winnable" : "unwinnable") : mine ? mine.verdict : null;
  const switchTo = el("button", { type: "button", id: "reading-switch", text: `Play the rule ${game.other.label}` });
  switchTo.addEventListener("click", () => newGame({ ...game.params, reading: game.other.reading }, S.history, [], true));
  return el("div", { class: "readings small", "data-reading": game.read },
    el("div", { class: "reading-row", "data-reading": game.read, "data-verdict": board || "" },
       `This board (${game.read === "literal" ? "word for word" : "as Board Game Arena reads it"}): ${board ? says(board) : "…"}`),
    el("div", { class: "reading-row", "data-reading": game.other.reading, "data-verdict": here ? here.verdict : "" },
       `Read ${game.other.label}: ${here ? says(here.verdict) + (here.reason && here.verdict === "unwinnable" ? ` (${here.reason})` : "") : "…"}`),
    switchTo);
}

function turnWords(L) {
  // whose turn it is; on JARVIS's turn the commander plays its card
  if (L.to_play === null) return "any seat leads";
  const jarvis = L.jarvis && L.jarvis.seat === L.to_play;
  return `${seatName(L.to_play)} to play` + (jarvis ? " (the commander plays JARVIS's card)" : "");
}

function drawPosition() {
  const L = S.layout;
  const p = $("#position");
  const a = S.verdicts.get(key(S.history));
  const words = S.explain.get(key(S.history));
  drawPractice();
  if (practising() && !L.over) {
    const who = turnWords(L);
    p.className = "";
    p.textContent = `Practice. Trick ${L.trick}, ${who}: choose a card; its verdict shows once it is played.`;
    return;
  }
  if (L.over) {
    p.className = L.won ? "v-winnable" : "v-unwinnable";
    p.textContent = `${L.won ? "✓ Won" : "✗ Lost"}: ${L.over_words || L.over.replace(/^(won|lost): /, "")}`;
    return;
  }
  const who = turnWords(L);
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
  $("#reasons").hidden = !a || !words || !!S.layout.over || practising();
  if (practising()) { $("#choice").textContent = ""; return; }
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
  drawVariations(all);
}

function drawVariations(all) {
  // each other line of the game from the card where it leaves this one, its cards to jump to
  const box = $("#variations");
  box.replaceChildren();
  for (const line of S.variations) {
    let n = 0;
    while (n < line.length && n < all.length && line[n] === all[n]) n++;
    if (n === line.length) continue;  // nothing this line does not already show
    const item = el("li", { class: "variation", "data-from": String(n) },
                    el("span", { class: "small", text: `from card ${n + 1} (trick ${Math.floor(n / S.layout.players) + 1}): ` }));
    line.slice(n).forEach((c, i) => {
      const b = el("button", { type: "button", class: "move", "data-index": String(n + i),
                               title: `the position after ${c} in this variation` }, cardFace(c));
      b.addEventListener("click", () => enterVariation(line, n + i + 1));
      item.append(b);
    });
    box.append(item);
  }
  $("#variations-head").hidden = !box.children.length;
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
  $("#hint").disabled = $("#line").disabled = !line || !!S.layout.over || practising();
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


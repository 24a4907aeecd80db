// The terragen page: an editor over the layout file's JSON, re-checked by the server after every edit.
// No game rule lives here: the server's check says what is wrong, reachable, cheap or fair.

import { call, saveBlob, fileLink, JobRunner, ApiError, Digits, parseExact, TAB, SERVER_SILENT } from "./api.js";
import { cellId, cellSpan, cornerHexes, drawBoard, key, seatColour, tokenName } from "./board.js";

const $ = (sel) => document.querySelector(sel);
const state = {
  info: null,
  layout: null,
  check: null,
  selected: null,
  column: 0,          // remembered x position for up/down arrow moves
  undo: [],
  redo: [],
  seq: 0,
  routes: new Set(),  // seats whose cheapest route is drawn (with "Cheapest routes" off)
  routesOff: new Set(),  // seats whose route is hidden while "Cheapest routes" draws every seat's
  saved: null,        // the layout as last opened or downloaded (JSON): leaving with other work asks first
  lastLevel: 5,
  fileName: null,     // the file the layout came from (null: a new board), named on the build sheet and the tab
  generated: null,        // {text, layout}: the generated board.json's bytes and the layout they hold
};
window.terragen = state;  // for the browser tests and the curious: the layout and the last check

// ---------------------------------------------------------------- messages
let toastTimer = null;
// "1 error", "2 errors": the page says what `terragen validate` says
function counted(n, noun) { return `${n} ${noun}${n === 1 ? "" : "s"}`; }

function toast(message, kind = "error") {
  const t = $("#toast");
  t.textContent = message;
  t.className = kind;
  t.hidden = false;
  clearTimeout(toastTimer);
  // news goes by itself; an error stays until a click on it (or Escape) closes it: one went after six
  // seconds, before a slow reader (or one zoomed in elsewhere on the page) had read it
  if (kind !== "error") toastTimer = setTimeout(closeToast, 5000);
}

function closeToast() {
  clearTimeout(toastTimer);
  $("#toast").hidden = true;
}

function fail(e) {
  if (e instanceof ApiError && e.status === 499 && e.message === "cancelled") { toast("cancelled", "info"); return; }
  toast(e.message || String(e));
}

// ---------------------------------------------------------------- layout edits
function cellAt(q, r) { return state.layout.cells.find((c) => c.q === q && c.r === r) || null; }

// An undo step is the whole of what a download depends on: the layout, the file it came from (the
// build sheet's title, the downloads' names) and generate's own bytes (JSON ↓ of a generated board,
// undone back to, is generate's file again).
function snapshot() {
  return { layout: JSON.stringify(state.layout), fileName: state.fileName, generated: state.generated };
}

function restore(step) {
  state.layout = parseExact(step.layout).value;
  state.fileName = step.fileName;
  state.generated = step.generated;
  // a selection off the restored board (undoing a larger radius) would place pieces off it
  if (state.selected && !withinRadius(state.selected[0], state.selected[1])) state.selected = null;
  followRadius();
}

function remember(step) {
  state.undo.push(step);
  if (state.undo.length > 500) state.undo.shift();
  state.redo = [];
}

function commit(change) {
  const before = snapshot();
  change(state.layout);
  if (JSON.stringify(state.layout) === before.layout) return;
  remember(before);
  scheduleCheck();
}

// "New board, radius" starts at the radius of the board on screen (it said 5 over a radius-3 board)
function followRadius() {
  const list = $("#new-radius");
  if ([...list.options].some((o) => Number(o.value) === state.layout.radius)) list.value = String(state.layout.radius);
}

function withinRadius(q, r) {
  const n = state.layout.radius;
  return Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) <= n;
}

function replaceLayout(layout, before = null) {
  if (before) remember(before);
  state.layout = layout;
  followRadius();
  state.selected = null;
  state.routes.clear();
  state.routesOff.clear();
  renderPlayers();
  scheduleCheck(0);
}

function staleMeta(layout) {
  // a generated board's build order no longer matches once a piece changes
  if (layout.meta && typeof layout.meta === "object" && layout.meta.build_order) {
    delete layout.meta.build_order;
    layout.meta.edited = true;
  }
}

function editCell(fn) {
  // nothing changes without a cell, so the controls are drawn again: a ticked "inverted" box
  // must not stay ticked over no cell
  if (!state.selected) { toast("select a cell first: click one, or press an arrow key", "info"); renderCell(); return; }
  const [q, r] = state.selected;
  if (!withinRadius(q, r)) { state.selected = null; toast("that position is off the board: select a cell on it", "info"); render(); return; }
  commit((layout) => {
    let cell = layout.cells.find((c) => c.q === q && c.r === r);
    if (!cell) {
      cell = { q, r, level: state.lastLevel, pattern: "A", rotation: 0 };
      layout.cells.push(cell);
    }
    const kind = `${cell.level}${cell.pattern}`;
    fn(cell);
    if (`${cell.level}${cell.pattern}` !== kind) delete cell.piece;  // the physical piece id no longer fits
    if (!cell.inverted) delete cell.inverted;
    staleMeta(layout);
  });
}

function setLevel(n) {
  // a level no piece has (0, 9) is set so the check can mark it, never carried to the next new piece
  if (state.info.levels.includes(n)) state.lastLevel = n;
  editCell((c) => { c.level = n; });
}
function setPattern(p) { editCell((c) => { c.pattern = p; }); }
function setRotation(k) { editCell((c) => { c.rotation = k; }); }
function rotate(step) {
  const n = state.info.rotations.length;
  editCell((c) => { c.rotation = (((c.rotation + step) % n) + n) % n; });
}
function toggleInverted() { editCell((c) => { c.inverted = !c.inverted; }); }

function removePiece() {
  if (!state.selected) { toast("select a cell first: click one, or press an arrow key", "info"); return; }
  const [q, r] = state.selected;
  commit((layout) => {
    layout.cells = layout.cells.filter((c) => !(c.q === q && c.r === r));
    staleMeta(layout);
  });
}

function toggleDestination() {
  if (!state.selected) { toast("select a cell first: click one, or press an arrow key", "info"); return; }
  if (!state.layout.players.length) { toast("add a player first (Players, Add player)", "info"); return; }
  const index = Number($("#dest-seat").value);
  const [q, r] = state.selected;
  commit((layout) => {
    const p = layout.players[index];
    if (!p) return;
    p.destinations = p.destinations || [];
    const at = p.destinations.findIndex((d) => d.q === q && d.r === r);
    if (at >= 0) p.destinations.splice(at, 1); else p.destinations.push({ q, r });
  });
  renderPlayers();
}

function undo() {
  if (!state.undo.length) return;
  state.redo.push(snapshot());
  restore(state.undo.pop());
  renderPlayers();
  scheduleCheck(0);
}

function redo() {
  if (!state.redo.length) return;
  state.undo.push(snapshot());
  restore(state.redo.pop());
  renderPlayers();
  scheduleCheck(0);
}

// ---------------------------------------------------------------- selection and keys
function select(q, r) {
  state.selected = [q, r];
  state.hovered = null;  // the line under the board describes the newer of the two: this selection
  state.column = q + r / 2;
  render();
}

// Bring the selected cell into sight when it is not: a finding tapped on a phone (or low in a long
// list) selected a cell half a screen above, and the edit bar then changed it unseen.
function revealSelected() {
  const cell = document.querySelector("#board g.cell.selected");
  if (!cell) return;
  const box = cell.getBoundingClientRect();
  const bar = $("#edit-bar");
  const bottom = bar && !bar.hidden ? Math.min(window.innerHeight, bar.getBoundingClientRect().top) : window.innerHeight;
  if (box.top < 0 || box.bottom > bottom || box.left < 0 || box.right > window.innerWidth) {
    cell.scrollIntoView({ block: "center", inline: "center" });
  }
}

function onBoard(q, r) {
  if (!state.check || !state.check.board) return true;
  return state.check.board.positions.some(([a, b]) => a === q && b === r);
}

function move(dir) {
  if (!state.selected) { select(0, 0); return; }
  const [q, r] = state.selected;
  let next;
  if (dir === "left") next = [q - 1, r];
  else if (dir === "right") next = [q + 1, r];
  else {
    const dr = dir === "up" ? -1 : 1;
    // of the two neighbours in the next row, the one nearer the remembered column
    const cands = dir === "up" ? [[q, r - 1], [q + 1, r - 1]] : [[q - 1, r + 1], [q, r + 1]];
    cands.sort((a, b) => Math.abs(a[0] + a[1] / 2 - state.column) - Math.abs(b[0] + b[1] / 2 - state.column));
    next = cands.find(([a, b]) => onBoard(a, b)) || [q, r + dr];
  }
  if (!onBoard(next[0], next[1])) return;
  state.selected = next;
  state.hovered = null;
  if (dir === "left" || dir === "right") state.column = next[0] + next[1] / 2;
  render();
}

// Keys typed into a text field are its own (Ctrl-Z there undoes the typing); a list keeps its plain
// keys (arrows, letters pick an entry) but not Ctrl-Z/Ctrl-Y, which undo and redo the board from
// anywhere else; a ticked box keeps no keys (space aside), so the board's shortcuts go on working
// after a click on "inverted".
function keyIsTheFields(ev) {
  const tag = (ev.target.tagName || "").toLowerCase();
  const box = tag === "input" && ["checkbox", "radio"].includes(ev.target.type);
  if (box) return ev.key === " ";
  if (tag === "textarea" || tag === "input" || ev.target.isContentEditable) return true;
  return tag === "select" && !(ev.ctrlKey || ev.metaKey);
}

// A list that is a step of editing (the seat under "Destination of", a start corner) gives the keys
// back to the board once a choice is made, so T places the destination of the seat just chosen.
// Arrow keys step through a closed list one entry at a time, each a change: those stay in the list
// (corner 5 could not be reached with them); Enter or Escape then goes back.
const STEPPING = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"];
function backToBoard(select) {
  let stepping = false;
  select.addEventListener("keydown", (ev) => {
    stepping = STEPPING.includes(ev.key);
    if (ev.key === "Enter" || ev.key === "Escape") $("#board").focus({ preventScroll: true });
  });
  select.addEventListener("pointerdown", () => { stepping = false; });
  select.addEventListener("change", () => {
    if (!stepping) $("#board").focus({ preventScroll: true });
    stepping = false;
  });
}

function onKey(ev) {
  // Esc closes a message from anywhere, a field too (a field has no use for it)
  if (ev.key === "Escape" && !$("#toast").hidden) { closeToast(); return; }
  if (keyIsTheFields(ev)) return;
  const k = ev.key;
  if ((ev.ctrlKey || ev.metaKey) && !ev.altKey) {
    if (k.toLowerCase() === "z" && !ev.shiftKey) { undo(); ev.preventDefault(); }
    else if (k.toLowerCase() === "y" || (k.toLowerCase() === "z" && ev.shiftKey)) { redo(); ev.preventDefault(); }
    return;
  }
  if (ev.altKey) return;
  if (k === "Escape") { state.selected = null; render(); ev.preventDefault(); return; }  // (a message went first, above)
  if (!editsTheBoard(ev.target)) return;
  if (/^[0-9]$/.test(k)) setLevel(Number(k));
  else if (/^[a-dA-D]$/.test(k)) setPattern(k.toUpperCase());
  else if (k === "r") rotate(1);
  else if (k === "R") rotate(-1);
  else if (k === "i" || k === "I") toggleInverted();
  else if (k === "t" || k === "T") toggleDestination();
  else if (k === "Delete" || k === "Backspace" || k === ".") removePiece();
  else if (k === "ArrowLeft") move("left");
  else if (k === "ArrowRight") move("right");
  else if (k === "ArrowUp") move("up");
  else if (k === "ArrowDown") move("down");
  else return;
  ev.preventDefault();
}

// The editing keys (levels, patterns, turns, Delete, the arrows) act where the board is being edited:
// the board, the Edit tab and its button, the foot bar, the toolbar above the board, or the page
// itself (nothing focused). From anywhere else they
// are that control's (or the page's): Backspace after Enter on the Print tab removed a piece unseen,
// and the arrow keys selected cells instead of scrolling a zoomed page.
function editsTheBoard(target) {
  if (!target || target === document.body || target === document.documentElement) return true;
  // (the toolbar too, whose Undo, 3D view and Whole board a mouse clicks between edits, and the Edit tab's button)
  return !!target.closest("#board, #tab-edit, #edit-bar, header, #tab-button-edit");
}

// The tabs as the WAI-ARIA tab pattern has them: the arrow keys (and Home, End) move to the next tab
// and open it; Tab goes on into the open panel.
function tabKeys(ev) {
  const tabs = [...document.querySelectorAll(".tabs [role=tab]")];
  const at = tabs.indexOf(ev.target);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[ev.key];
  if (at < 0 || to === undefined) return;
  const next = tabs[(to + tabs.length) % tabs.length];
  next.focus();
  next.click();
  ev.preventDefault();
  ev.stopPropagation();  // the page's own keys would move the board's selection too (the Edit tab's button is one of theirs)
}

// ---------------------------------------------------------------- live check
let checkTimer = null;
// Results of a job on the board (a simulation, a generated board's summary) describe the board as it
// was sent: once it is edited they say so, and an undo back to that board makes them current again.
function markStaleResults() {
  const now = JSON.stringify(state.layout);
  for (const box of document.querySelectorAll("[data-layout]")) {
    const stale = box.dataset.layout !== now;
    box.classList.toggle("stale", stale);
    let note = box.querySelector(":scope > .stale-note");
    if (stale && !note) {
      note = document.createElement("p");
      note.className = "stale-note";
      note.textContent = box.dataset.staleText;
      box.prepend(note);
    } else if (!stale && note) note.remove();
  }
}

function resultsFor(box, sent, staleText) {
  box.dataset.layout = sent;
  box.dataset.staleText = staleText;
  markStaleResults();
}

function scheduleCheck(delay = 60) {
  render();
  markStaleResults();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, delay);
}

async function runCheck() {
  const seq = ++state.seq;
  document.body.classList.add("checking");
  try {
    const sent = JSON.stringify(state.layout);
    const result = await call("/api/check", { layout: state.layout, puzzle: !!state.puzzle });
    if (seq !== state.seq) return;  // a newer edit is being checked
    state.check = result;
    state.checkedFor = sent;
    // the server answers again: its "does not answer" message, which stays until closed, is out of date
    if (!$("#toast").hidden && $("#toast").textContent === SERVER_SILENT) closeToast();
    document.body.classList.remove("checking");
    document.body.dataset.checked = String(seq);
    render();
  } catch (e) {
    if (seq !== state.seq) return;
    document.body.classList.remove("checking");
    state.check = null;
    render();
    $("#verdict").textContent = "cannot check";
    $("#verdict").className = "verdict invalid";
    fail(e);
  }
}

// ---------------------------------------------------------------- rendering
function routeShown(seat) {
  return $("#show-routes").checked ? !state.routesOff.has(seat) : state.routes.has(seat);
}

// ---------------------------------------------------------------- the draft kept in the browser
// A board typed in by hand was lost to a reload, a crash or a "Leave" clicked by mistake: the page
// keeps the work not yet downloaded in the browser's storage, and the next page it opens restores it.
const DRAFT = "terragen.draft";

// Kept while this tab has work not downloaded, and dropped once it has none (downloaded, or undone back
// to the board as opened), but only if the kept draft is this tab's: another tab's stays. An empty board
// is never kept: after New over unsaved edits, the draft stays the edits (one Undo away here).
function keepDraft() {
  try {
    const held = JSON.parse(localStorage.getItem(DRAFT) || "null");
    const empty = !state.layout.cells.length && !state.layout.players.some((p) => (p.destinations || []).length);
    if (unsaved() && !empty) {
      localStorage.setItem(DRAFT, JSON.stringify({ layout: state.layout, fileName: state.fileName,
        puzzle: !!state.puzzle, tab: TAB }));
    } else if (!unsaved() && held && held.tab === TAB) {
      localStorage.removeItem(DRAFT);
    }
  } catch (e) { /* storage off, full or damaged: the page works as before, without a draft */ }
}

// The kept draft, put on the board as one edit over the empty one (Undo goes back to it); true if any.
function restoreDraft() {
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch (e) { draft = null; }
  if (!draft || typeof draft !== "object" || !draft.layout || !Array.isArray(draft.layout.cells)) return false;
  const before = snapshot();
  state.fileName = typeof draft.fileName === "string" ? draft.fileName : state.fileName;
  state.puzzle = draft.puzzle === true;  // a batch scenario is checked as the puzzle it is
  replaceLayout(draft.layout, before);
  state.saved = null;  // not downloaded: leaving asks first, as it did before the page closed
  toast("restored the board you were editing, not yet downloaded (Undo goes back to an empty board)", "info");
  return true;
}

// The name a download or the build sheet gives the board: its file's, or board.json for a new board.
const NEW_FILE = "board.json";
function fileName() { return state.fileName || NEW_FILE; }

// The browser tab's title names the board's file ("board.json — terragen"), with a mark while it
// holds edits not downloaded: with several pages open, the tab said only "terragen" in each. A new
// board keeps the page's own title until it is edited (then "new board").
const PLAIN_TITLE = document.title;
const EDITED_MARK = "• ";
function showTitle() {
  const edited = unsaved();
  const name = state.fileName || (edited ? "new board" : null);
  document.title = name ? `${edited ? EDITED_MARK : ""}${name} — terragen` : PLAIN_TITLE;
}

function render() {
  if (!state.layout) return;
  keepDraft();
  showTitle();
  const routes = [];
  if (state.check) {
    for (const p of state.check.report.players || []) {
      if (routeShown(p.seat)) routes.push({ seat: p.seat, path: p.path });
    }
  }
  drawBoard($("#board"), state.layout, state.check, {
    colours: state.info.colours, selected: state.selected, view3d: $("#view-3d").checked, routes,
    cornerDirections: state.info.corner_directions,
  });
  // the grid's selected cell, which a screen reader reads as the selection moves on the focused board
  // (set only when it changes: the board is drawn anew after every edit and check, and setting it
  // again each time could have the cell read again each time)
  const chosen = state.selected && cellElement(state.selected[0], state.selected[1]);
  const active = chosen ? cellId(state.selected[0], state.selected[1]) : null;
  if (active !== $("#board").getAttribute("aria-activedescendant")) {
    if (active) $("#board").setAttribute("aria-activedescendant", active);
    else $("#board").removeAttribute("aria-activedescendant");
  }
  fitBoard();
  renderCell();
  renderCheck();
  showHover();
  updateEditBar();
  // the last Undo (or Redo) greys its button out under the focus, which fell back to the page: it goes
  // to the other one, or to the board
  const lost = document.activeElement;
  $("#undo").disabled = !state.undo.length;
  $("#redo").disabled = !state.redo.length;
  if (lost && lost.disabled && (lost.id === "undo" || lost.id === "redo")) {
    const other = $(lost.id === "undo" ? "#redo" : "#undo");
    (other.disabled ? $("#board") : other).focus({ preventScroll: true });
  }
  restToolbar();  // the toolbar's one Tab stop never rests on a greyed-out Undo or Redo
  gamesHint();  // the seat count may have changed
}

// On a touch screen or in a phone-sized window (the same test as the stylesheet's) a cell is drawn
// at least FINGER px across, its top face's narrower side, and the board scrolls in its box: fitted
// to a 390 px phone a radius-5 board's cells were 31 px, and taps landed on the neighbours.
// "Whole board" shrinks it to fit again, for a look at all of it.
const FINGER = 48;
// Elsewhere a cell is never drawn under READABLE CSS px: a page zoomed to 200% or more (a low-vision
// reader's) fitted the board into a box cut to the smaller screen, and the cells came out smaller
// in real pixels than at 100%; now zooming in makes the board larger, and it scrolls in its box.
const READABLE = 26;
const TOUCH = window.matchMedia("(max-width: 600px), (pointer: coarse)");
const ONE_COLUMN = window.matchMedia("(max-width: 900px)");  // the page's one-column layout (style.css)
const HEADER_FOLDED = window.matchMedia("(max-width: 1100px)");  // the header's commands under Menu (style.css)
const FINGERS = window.matchMedia("(pointer: coarse)");  // the help speaks of taps only to a touch screen
let drawnView = "";  // the viewBox last fitted: a new one (radius, 3D) is centred in the box
let shownSelection = "null";  // the selection last brought into the box (a redraw after a check leaves the scroll alone)

function fitBoard() {
  const box = $("#board-box"), svg = $("#board");
  const view = svg.getAttribute("viewBox");
  if (!view) return;
  const [, , w, h] = view.split(" ").map(Number);
  const fits = Math.min(box.clientWidth / w, box.clientHeight / h);
  const least = (TOUCH.matches ? FINGER : READABLE) / cellSpan($("#view-3d").checked);
  const need = $("#whole-board").checked ? 0 : least;
  const large = need > fits;
  // "Whole board" is offered wherever the cells would be drawn larger than the box (and stays while ticked)
  document.body.classList.toggle("board-scrolls", least > fits);
  restToolbar();  // (its one Tab stop never on a hidden "Whole board")
  const size = large ? [`${Math.ceil(w * need)}px`, `${Math.ceil(h * need)}px`] : ["", ""];
  if (svg.style.width !== size[0] || svg.style.height !== size[1] || view !== drawnView) {
    svg.style.width = size[0];
    svg.style.height = size[1];
    box.classList.toggle("large", large);
    if (large) {  // the selected cell, else the middle of the board, in the middle of the box
      const g = state.selected && cellElement(state.selected[0], state.selected[1]);
      const b = box.getBoundingClientRect(), s = svg.getBoundingClientRect();
      const at = g ? g.getBoundingClientRect() : s;
      box.scrollLeft += (at.left + at.width / 2) - (b.left + b.width / 2);
      box.scrollTop += (at.top + at.height / 2) - (b.top + b.height / 2);
    }
    drawnView = view;
    shownSelection = String(state.selected);
  }
  if (String(state.selected) !== shownSelection) showSelected();
  shownSelection = String(state.selected);
}

function cellElement(q, r) { return document.querySelector(`#board g.cell[data-q='${q}'][data-r='${r}']`); }

// a cell newly selected with the arrow keys or from the check's list scrolls into the box, as
// little as needed (a tap on a cell at the box's edge brings it wholly in)
function showSelected() {
  const box = $("#board-box");
  if (!state.selected || !box.classList.contains("large")) return;
  const g = cellElement(state.selected[0], state.selected[1]);
  if (!g) return;
  const c = g.querySelector("polygon.top").getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const left = b.left + box.clientLeft, top = b.top + box.clientTop;
  const right = left + box.clientWidth, bottom = top + box.clientHeight;
  if (c.left < left) box.scrollLeft -= left - c.left; else if (c.right > right) box.scrollLeft += Math.min(c.right - right, c.left - left);
  if (c.top < top) box.scrollTop -= top - c.top; else if (c.bottom > bottom) box.scrollTop += Math.min(c.bottom - bottom, c.top - top);
}

// The line under the board describes the cell under the pointer, or else the selected cell (moved to
// with the arrow keys, tapped on a phone: it followed the mouse only); the board is redrawn after
// every edit and check, so the line is read again from the new drawing, not left describing the old one.
// (Whole board is under Menu where the header folds into one line: style.css, 1100 px and less)
const tapHelp = () => "Tap a cell, then the buttons at the foot of the screen (or the Edit tab's) set it; or type, with a keyboard. "
  + `Drag the board to see the rest of it; tick Whole board${HEADER_FOLDED.matches ? " (under Menu)" : ""} to see all of it at once, in smaller cells.`;
let keysHelp = null;
function showHover() {
  const h = state.hovered || state.selected;
  if (keysHelp === null) keysHelp = $("#hover-info").textContent;
  // the keys' help (or on a touch screen the taps') stays until the pointer first meets a cell
  if (!h) { $("#hover-info").textContent = FINGERS.matches ? tapHelp() : keysHelp; return; }
  const g = document.querySelector(`#board g.cell[data-q='${h[0]}'][data-r='${h[1]}']`);
  $("#hover-info").textContent = g ? g.dataset.info : "";
  announceSelection();
}

// What a screen reader hears: the selected cell when it (or what is on it) changes, not every cell the
// mouse crosses (a sweep across the board set off ten announcements), and each of its problems without
// the list of every cell it names ("to do: 91 board positions have no piece: (0,-5), (1,-5), ...").
// The words are the cell's own name in the board's grid (board.js: cellLabel). On the focused board a
// move is read through the grid's aria-activedescendant, so the live region leaves it out (it was read
// twice); it says a change in place (an edit, a check's new finding) and a move made from elsewhere
// (a finding's Enter, a tap on the foot bar's buttons).
let announced = "";
let announcedAt = "null";
function announceSelection() {
  const sel = state.selected;
  const g = sel && cellElement(sel[0], sel[1]);
  const text = g ? g.getAttribute("aria-label") : "";
  if (text === announced) return;
  const moved = String(sel) !== announcedAt;
  // an edit is said once its check has answered: drawn at once, the cell still carried the last
  // check's findings ("to do: ... no piece" on the piece just placed), said and then said again
  if (!moved && state.checkedFor !== JSON.stringify(state.layout)) return;
  announced = text;
  announcedAt = String(sel);
  $("#announce").textContent = moved && document.activeElement === $("#board") ? "" : text;
}

// On a touch screen or a phone the Edit tab's buttons are a scroll away from the board (under it,
// or in another tab): a tapped cell, then a scroll down, a tap, a scroll up to see it. While a cell
// is selected and the tab's level buttons are not wholly in sight, a bar at the foot of the screen
// holds the most-used ones (levels, patterns, turns, done); the selected cell is kept clear of it.
let barSelection = "null";  // the selection last kept clear of the bar
function updateEditBar() {
  const bar = $("#edit-bar");
  // a desktop zoomed to 150-200% lays the page out in one column (as a narrow window does) with the
  // Edit tab's buttons two screens under the board: the bar comes there too, with the Edit tab open
  const keypad = $("#level-buttons").getBoundingClientRect();
  const zoomed = !TOUCH.matches && ONE_COLUMN.matches && keypad.height > 0;
  const editing = (TOUCH.matches || zoomed) && !!state.selected;
  // the room under the page's end depends on the selection only, never on the bar shown: a page
  // scrolled to its end would otherwise move as the bar came and went
  document.body.classList.toggle("editing", editing);
  const inSight = keypad.height > 0 && keypad.top >= 0 && keypad.bottom <= window.innerHeight;
  bar.hidden = !(editing && !inSight);
  // the room the bar takes at the foot of the screen: the Generate tab's button, which stays at the
  // foot of the screen while its form scrolls, sat under the bar (style.css: .run-bar)
  document.body.style.setProperty("--edit-bar", bar.hidden ? "0px" : `${bar.offsetHeight}px`);
  if (String(state.selected) === barSelection) return;
  barSelection = String(state.selected);
  if (bar.hidden || !bar.getClientRects().length) return;
  const g = cellElement(state.selected[0], state.selected[1]);
  if (!g) return;
  const c = g.querySelector("polygon.top").getBoundingClientRect();
  const over = c.bottom + 4 - bar.getBoundingClientRect().top;
  if (over > 0) window.scrollBy(0, Math.min(over, c.top));  // up, never past the screen's top
}

// The foot bar covers the screen's last few lines: a control reached with Tab under it (the Edit tab
// on a phone, the Players list at 400% zoom) is scrolled up clear of it.
function keepFocusClearOfBar(ev) {
  const bar = $("#edit-bar");
  if (bar.hidden || !bar.getClientRects().length || bar.contains(ev.target) || !ev.target.getBoundingClientRect) return;
  const r = ev.target.getBoundingClientRect();
  const over = r.bottom + 4 - bar.getBoundingClientRect().top;
  if (over > 0) window.scrollBy(0, Math.min(over, Math.max(0, r.top)));
}

function renderCell() {
  const sel = state.selected;
  const cell = sel ? cellAt(sel[0], sel[1]) : null;
  $("#cell-name").textContent = sel ? `(${sel[0]},${sel[1]})${cell ? "" : " empty"}` : "(none selected)";
  const on = (b, yes) => { b.classList.toggle("on", yes); b.setAttribute("aria-checked", String(yes)); };
  for (const b of document.querySelectorAll("#level-buttons button, #bar-levels button")) on(b, !!cell && cell.level === Number(b.dataset.value));
  for (const b of document.querySelectorAll("#pattern-buttons button, #bar-patterns button")) on(b, !!cell && cell.pattern === b.dataset.value);
  for (const b of document.querySelectorAll("#rotation-buttons button")) on(b, !!cell && cell.rotation === Number(b.dataset.value));
  $("#inverted").checked = !!(cell && cell.inverted);
  for (const id of GROUPS) restStop($(id));  // the next Tab into a group lands on the new value
}

function swatch(seat) {
  const s = document.createElement("span");
  s.className = "swatch";
  s.style.setProperty("--c", seatColour(state.info.colours.seats, state.layout, seat));
  return s;
}

// A seat's number with its swatch and, small beside it, the printed kit's token (the build sheet
// names seats by token). Colours and tokens go by the seats' order, as the kit's do: removing a seat
// changes those of the seats after it, which the title says rather than renumber the seats.
function seatLabel(seat) {
  const token = tokenName(state.info.colours.seats, state.layout, seat);
  const small = document.createElement("span");
  small.className = "token";
  small.textContent = token;
  const cell = td(swatch(seat), String(seat), " ", small);
  cell.title = `seat ${seat} (${token} on the print): the printed kit's tokens P1, P2, ... and the seats' colours `
    + "go by the seats' order, lowest first, so they change when a seat before this one is removed or added";
  return cell;
}

function td(...content) {
  const cell = document.createElement("td");
  cell.append(...content);
  return cell;
}

function fmt(v, digits = 2) { return v === null || v === undefined ? "–" : Number(v).toFixed(digits); }

const SHOWN_FINDINGS = 40;  // of each kind

// The race model's win chances come in two forms (README, "What the analysis computes"): the
// check's table has validate's "race, 0 opens" (the lowest-numbered seat always goes first), the
// generate summary "race, rotating" (the first player rotates from game to game, as games are
// played). Both places say which they show and why the other's figures differ, in the same words.
const RACE_MODEL = "a race of lone tokens (no send-backs or rotations)";
const RACE_ROTATING = "if the first player rotates from game to game";
function raceFixed(seats) { return `if seat ${seats.length ? Math.min(...seats) : 0} always goes first`; }

function checkRaceNote(seats) {
  return `“race, 0 opens” is each seat's chance to win ${RACE_MODEL} ${raceFixed(seats)}. `
    + `The generate summary's “race, rotating” is the chance ${RACE_ROTATING}, so its figures differ.`;
}

function generateRaceNote(seats) {
  return `“race, rotating” is each seat's chance to win ${RACE_MODEL} ${RACE_ROTATING}. `
    + `The check's “race, 0 opens” is the chance ${raceFixed(seats)}, so its figures differ.`;
}

function renderCheck() {
  const c = state.check;
  const verdict = $("#verdict");
  const list = $("#findings");
  list.replaceChildren();
  const tbody = $("#seats tbody");
  tbody.replaceChildren();
  const raceNote = $("#race-note");
  raceNote.hidden = true;
  if (!c) { verdict.textContent = "…"; $("#metrics").textContent = ""; return; }
  const rep = c.report;
  // work not yet done (an empty position, a seat with no destination) is told apart from a mistake:
  // a new board opened all in red, as if the user had broken something before touching it
  const toDo = new Set(c.to_do || []);
  const mistakes = rep.errors.filter((_, i) => !toDo.has(i));
  const pending = rep.errors.filter((_, i) => toDo.has(i));
  verdict.textContent = rep.valid ? `valid: ${counted(0, "error")}, ${counted(rep.warnings.length, "warning")}`
    : mistakes.length ? `INVALID: ${counted(mistakes.length, "error")}${pending.length ? `, ${pending.length} to do` : ""}, ${counted(rep.warnings.length, "warning")}`
      : `unfinished: ${toDoSummary(pending)}`;
  verdict.className = "verdict " + (rep.valid ? (rep.warnings.length ? "warn" : "valid") : mistakes.length ? "invalid" : "todo");
  // the build sheet draws any board, as terragen render does with a warning: the Print tab says so
  const sheetNote = $("#sheet-note");
  sheetNote.hidden = rep.valid;
  sheetNote.textContent = rep.valid ? "" : mistakes.length
    ? `The board breaks ${counted(mistakes.length, "rule")} (the check lists ${mistakes.length > 1 ? "them" : "it"}): `
      + "the sheet draws it as it is."
    : `The board is unfinished (${toDoSummary(pending)}): the sheet draws it as it is.`;
  // "valid" is about the rules; a player read it as "good to play" on a board where one seat wins 94%
  // of races, so how even the chances look stands beside it (the summary's "chances" line says more)
  const chances = $("#chances");
  chances.hidden = !CHANCES_WORDS[c.chances];
  chances.textContent = CHANCES_WORDS[c.chances] || "";
  chances.className = `verdict chances ${c.chances || ""}`;
  chances.title = c.chances ? (c.summary || []).find((line) => line.startsWith("chances")) || "" : "";
  verdict.title = !rep.valid && !mistakes.length ? "terragen validate counts these as errors until they are done: "
    + "a board to play needs every position filled and 1 to 3 destinations for every seat" : "";
  for (const [sev, all] of [["error", mistakes], ["to do", pending], ["warning", rep.warnings]]) {
    // a file with every cell listed ten times gave 819 lines and pushed the seats out of sight
    const items = all.slice(0, SHOWN_FINDINGS);
    for (const f of items) {
      const li = document.createElement("li");
      li.className = sev === "to do" ? "todo" : sev;
      li.dataset.code = f.code;
      li.textContent = `${sev} [${f.code}] ${f.message}`;
      if (f.cells.length) {
        li.classList.add("clickable");
        li.title = "click (or Enter) to select the cell";
        li.tabIndex = 0;  // reachable with Tab, and Enter or Space selects the cell as a click does
        li.setAttribute("role", "button");
        // the list is drawn anew on select: the keys go to the board, on the cell just selected
        const pick = () => { select(f.cells[0][0], f.cells[0][1]); $("#board").focus({ preventScroll: true }); revealSelected(); };
        li.addEventListener("click", pick);
        li.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); }
        });
      }
      list.appendChild(li);
    }
    if (all.length > items.length) {
      const more = document.createElement("li");
      more.className = `${sev === "to do" ? "todo" : sev} more`;
      more.textContent = `… and ${counted(all.length - items.length, "more " + sev)} (terragen validate lists them all)`;
      list.appendChild(more);
    }
  }
  for (const p of [...(rep.players || [])].sort((a, b) => a.seat - b.seat)) {
    const tr = document.createElement("tr");
    // the column is narrow: a destination never breaks inside itself, only between two of them
    const dests = p.destinations.map((d) => {
      const s = document.createElement("span");
      s.className = "one";
      s.textContent = `(${d.q},${d.r}) ${d.reachable_elevation ? "✓" : "✗"}/${d.reachable_pips ? "✓" : "✗"}`;
      s.title = `destination (${d.q},${d.r}): ${d.reachable_elevation ? "reachable" : "NOT reachable"} ignoring pips, `
        + `${d.reachable_pips ? "reachable" : "NOT reachable"} as the pieces are turned`;
      return s;
    });
    const chance = p.win_probability_race;  // the race model, as terragen validate reports it
    const fin = p.finish_rounds ? [p.finish_rounds.p10, p.finish_rounds.p50, p.finish_rounds.p90] : null;
    const at = document.createElement("span");  // the corner's position, small, on the corner's line
    at.className = "at";
    at.textContent = p.start ? `(${p.start[0]},${p.start[1]})` : "";
    const dest = td(...dests.flatMap((s, i) => (i ? [" ", s] : [s])));
    if (!dests.length) dest.textContent = "none";
    dest.className = "dests";
    tr.append(
      seatLabel(p.seat),
      td(String(p.corner), " ", at),
      dest,
      td(p.cost_good === null ? "–" : `${p.cost_good}/${p.cost_bad}`),
      td(fmt(p.expected_turns)),
      td(fin ? fin.map((x) => (x === null || x < 0 ? "–" : String(x))).join("/") : "–"),
      td(chance === undefined || chance === null ? "–" : `${(100 * chance).toFixed(1)}%`),
    );
    const box = document.createElement("input");
    box.type = "checkbox";
    box.className = "route-toggle";
    box.title = "draw this seat's cheapest route";
    box.setAttribute("aria-label", `cheapest route of seat ${p.seat}`);
    box.checked = routeShown(p.seat);
    box.disabled = !p.path || p.path.length < 2;
    box.addEventListener("change", () => {
      // with every route drawn, a box hides its seat's; otherwise it draws it
      const set = $("#show-routes").checked ? state.routesOff : state.routes;
      if (box.checked === $("#show-routes").checked) set.delete(p.seat); else set.add(p.seat);
      render();
    });
    const tap = document.createElement("label");  // on a touch screen a 44 px target round the box
    tap.className = "tap";
    tap.append(box);
    tr.append(td(tap));
    tbody.appendChild(tr);
  }
  showSkipped(tbody, c.skipped_by || [], !mistakes.some((f) => (c.skipped_by || []).includes(f.code)));
  const seats = (rep.players || []).map((p) => p.seat);
  raceNote.textContent = checkRaceNote(seats);
  raceNote.hidden = !(rep.players || []).some((p) => p.win_probability_race !== undefined && p.win_probability_race !== null);
  $("#metrics").textContent = (c.summary || []).filter((line) => /^(board|difficulty|race model|chances)/.test(line)).join("\n");
}

// "91 empty positions, 2 seats without a destination": what a board being built still needs
// only a lopsided race is worth a badge: nearer, the race model cannot tell (the summary's line says so)
const CHANCES_WORDS = { far: "chances far from even" };

function toDoSummary(pending) {
  const empty = pending.filter((f) => f.code === "cell-missing").reduce((n, f) => n + f.cells.length, 0);
  const seats = pending.filter((f) => f.code === "destination-count").length;
  // destinations placed before their pieces, and (while positions are empty) ones no route reaches yet
  const waiting = pending.filter((f) => f.code === "destination-off-board").length;
  const later = pending.filter((f) => f.code === "destination-unreachable").length;
  return [empty ? counted(empty, "empty position") : "", seats ? `${counted(seats, "seat")} without a destination` : "",
    waiting ? `${counted(waiting, "destination")} waiting for ${waiting > 1 ? "their pieces" : "its piece"}` : "",
    later ? `${counted(later, "destination")} not reached yet` : ""]
    .filter(Boolean).join(", ");
}

// validate leaves out every seat's figures while a seat has no destination or more than three (or
// the players are too few or many): the table said nothing, only its headers stayed. A row says why,
// and "Cheapest routes", which has no routes to draw meanwhile, is greyed out with the reason.
const ROUTES_TITLE = "draw every seat's cheapest route on the board";
function showSkipped(tbody, codes, onlyToDo) {
  const routes = $("#show-routes");
  const why = !codes.length ? "" : onlyToDo ? "until every seat has a destination"
    : `until the ${codes.map((code) => `[${code}]`).join(" and ")} `
      + `error${codes.length > 1 ? "s" : ""} above ${codes.length > 1 ? "are" : "is"} fixed`;
  routes.disabled = !!codes.length;
  routes.parentElement.title = codes.length ? `no routes ${why}` : ROUTES_TITLE;
  routes.parentElement.classList.toggle("disabled", !!codes.length);
  if (!codes.length) return;
  const tr = document.createElement("tr");
  tr.className = onlyToDo ? "skipped todo" : "skipped";
  const cell = td(onlyToDo ? `No per-seat figures (costs, turns, race, routes) ${why}: select a cell and press T `
    + "(or “Place / remove here”) to place the destination of the seat chosen under “Destination of”."
    : `No per-seat figures (costs, turns, race, routes) ${why}: every seat needs 1 to 3 destinations, `
    + "and a game 2 to 6 players.");
  cell.colSpan = $("#seats thead tr").cells.length;
  tr.appendChild(cell);
  tbody.appendChild(tr);
}

function renderPlayers() {
  const tbody = $("#players tbody");
  tbody.replaceChildren();
  const destSeat = $("#dest-seat");
  const keep = destSeat.selectedOptions.length ? destSeat.selectedOptions[0].dataset.seat : null;
  destSeat.replaceChildren();
  // in seat order, whatever the file's order (an added seat filling a gap came last)
  const bySeat = state.layout.players.map((p, i) => [p, i]).sort((a, b) => a[0].seat - b[0].seat);
  for (const [p, i] of bySeat) {
    const tr = document.createElement("tr");
    const seatTd = seatLabel(p.seat);
    const cornerTd = document.createElement("td");
    const sel = document.createElement("select");
    sel.className = "corner";
    const corners = state.info.corners.includes(p.corner) ? state.info.corners : [...state.info.corners, p.corner];
    // each corner with its position (the board draws the numbers at the corners too)
    const at = cornerHexes(state.layout.radius, state.info.corner_directions);
    for (const k of corners) {
      sel.add(new Option(at[k] ? `${k} (${at[k][0]},${at[k][1]})` : String(k), String(k), false, p.corner === k));
    }
    sel.setAttribute("aria-label", `start corner of seat ${p.seat}`);
    sel.addEventListener("change", () => commit((l) => { l.players[i].corner = Number(sel.value); }));
    backToBoard(sel);
    cornerTd.appendChild(sel);
    const destTd = document.createElement("td");
    destTd.className = "dests";  // under 360 px wide, a line of its own (style.css)
    destTd.textContent = (p.destinations || []).map((d) => `(${d.q},${d.r})`).join(" ") || "none";
    const delTd = document.createElement("td");
    const del = document.createElement("button");
    del.type = "button";
    del.textContent = "remove";
    del.setAttribute("aria-label", `remove seat ${p.seat}`);
    del.addEventListener("click", () => { commit((l) => { l.players.splice(i, 1); }); renderPlayers(); });
    delTd.appendChild(del);
    tr.append(seatTd, cornerTd, destTd, delTd);
    tableRoles(tr);
    tbody.appendChild(tr);
    const option = new Option(`seat ${p.seat} (${tokenName(state.info.colours.seats, state.layout, p.seat)})`, String(i));
    option.dataset.seat = String(p.seat);
    destSeat.add(option);
  }
  const kept = [...destSeat.options].find((o) => o.dataset.seat === keep);  // the same seat, wherever it moved
  if (kept) destSeat.value = kept.value;
  // greyed out with its reason at six seats, where a click only said why it did nothing
  const full = state.layout.players.length >= CORNER_ORDER.length;
  $("#add-player").disabled = full;
  $("#add-player").title = full ? `a board has ${CORNER_ORDER.length} corners: at most ${CORNER_ORDER.length} players`
    : "add a seat on a free corner";
}

// A table laid out as cards on a narrow screen (display: grid, style.css) is no longer a table to some
// browsers' accessibility trees: its rows and cells say what they are themselves.
function tableRoles(tr) {
  tr.setAttribute("role", "row");
  for (const cell of tr.cells) cell.setAttribute("role", "cell");
}

// The corners a new seat takes, in turn: opposite corners first, as a new board's two seats sit
const CORNER_ORDER = [0, 3, 1, 4, 2, 5];

function addPlayer() {
  if (state.layout.players.length >= CORNER_ORDER.length) {
    toast(`a board has ${CORNER_ORDER.length} corners: at most ${CORNER_ORDER.length} players`, "info");
    return;
  }
  commit((l) => {
    const seats = new Set(l.players.map((p) => p.seat));
    const corners = new Set(l.players.map((p) => p.corner));
    let seat = 0; while (seats.has(seat)) seat++;
    // in its place among the seats (a gap left by a removed seat is filled where it was)
    const at = l.players.findIndex((p) => p.seat > seat);
    l.players.splice(at < 0 ? l.players.length : at, 0, { seat, corner: CORNER_ORDER.find((k) => !corners.has(k)), destinations: [] });
  });
  renderPlayers();
}

// ---------------------------------------------------------------- files
async function newBoard() {
  try {
    const data = await call("/api/empty", { radius: Number($("#new-radius").value) });
    const edits = unsaved();  // replaced without a word, as Open now says it
    if (openLayout(data.layout, null) && edits) {
      toast("new board; the board before it, not downloaded, is one Undo away", "info");
    }
  } catch (e) { fail(e); }
}

// A layout read exactly (parseExact) opens in the editor. Whole numbers above 2^53 stay exact in
// meta, which the page only carries along; in cells and players the editor computes with them, so
// there they become (rounded) numbers, and the page says so rather than change them in silence.
function openLayout(layout, name, lost = [], puzzle = false) {
  const rounded = [...lost];
  const plain = (v) => {
    if (JSON.isRawJSON && JSON.isRawJSON(v)) { rounded.push(v.rawJSON); return Number(v.rawJSON); }
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === "object") { for (const k of Object.keys(v)) v[k] = plain(v[k]); }
    return v;
  };
  for (const key of Object.keys(layout)) if (key !== "meta") layout[key] = plain(layout[key]);
  const before = state.layout ? snapshot() : null;
  // edits never downloaded stay unsaved under the new board (one Undo away): leaving the page still
  // asks first, where New or Open once counted as a save and a reload lost them without a word
  const unsavedBefore = unsaved();
  state.fileName = name;
  state.generated = null;
  // a batch scenario's one player is its puzzle: checked as `terragen validate` checks the file
  state.puzzle = puzzle;
  // said before the board is drawn: the draw keeps (or drops) the draft by it
  state.saved = unsavedBefore ? null : JSON.stringify(layout);
  replaceLayout(layout, before);
  if (rounded.length) {
    toast(`${name || "the board"}: this page cannot keep whole numbers above 2^53 exactly (${rounded[0]}${rounded.length > 1 ? " and more" : ""}); `
      + "they are rounded, and a download from the page would change them: use the command line for this file");
    return false;
  }
  return true;
}

// Whether the page holds edits not downloaded since (a generated board counts as one)
function unsaved() {
  return !!state.layout && state.undo.length > 0 && JSON.stringify(state.layout) !== state.saved;
}

// Line and column (1-based; the column in characters, a BOM not counted) of byte `offset`, as the
// command line names the place of a byte that is not UTF-8.
function placeOfByte(bytes, offset) {
  let line = 1, start = 0;
  for (let i = 0; i < offset; i++) {  // \r\n, a lone \r and \n each end a line, as the readers count them
    if (bytes[i] === 10 || (bytes[i] === 13 && bytes[i + 1] !== 10)) { line++; start = i + 1; }
  }
  if (start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const before = new TextDecoder("utf-8").decode(bytes.slice(start, offset));
  return [line, [...before].length + 1];  // characters, not UTF-16 units, as Python counts them
}

// The first bad byte of data that is not UTF-8: where a sequence starts that breaks the rules
// (Python's offset too, so the page names the byte the command line names).
function badUtf8Offset(bytes) {
  const cont = (b) => b >= 0x80 && b <= 0xbf;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) { i++; continue; }
    // length, and the second byte's range (no overlong forms, no surrogates, nothing past U+10FFFF)
    const [n, lo, hi] = b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] : b === 0xe0 ? [3, 0xa0, 0xbf]
      : b === 0xed ? [3, 0x80, 0x9f] : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf]
      : b === 0xf0 ? [4, 0x90, 0xbf] : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] : b === 0xf4 ? [4, 0x80, 0x8f] : [0];
    if (!n || i + n > bytes.length || bytes[i + 1] < lo || bytes[i + 1] > hi) return i;
    for (let j = 2; j < n; j++) if (!cont(bytes[i + j])) return i;
    i += n;
  }
  return -1;
}

// A file's text as the command line reads it: UTF-8 or refused, and at most the server's limit,
// counted in characters as the server counts them (not bytes: an "é" is two).
async function readText(file) {
  const limit = state.info.max_text_chars;
  const tooLong = `${file.name}: file is longer than the limit of ${limit.toLocaleString("en")} characters for a layout`;
  if (file.size > 4 * limit) throw new Error(tooLong);  // 4 bytes at most per character: no need to read it
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    const at = badUtf8Offset(bytes);
    const [line, col] = placeOfByte(bytes, at);
    throw new Error(`${file.name}:${line}:${col}: not UTF-8 text: byte 0x${bytes[at].toString(16).padStart(2, "0")} `
      + "here does not read as UTF-8 (an editor saving Latin-1 or Windows-1252 writes accented letters so); "
      + "save the file as UTF-8");
  }
  const pairs = (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) || []).length;  // one character, two code units
  if (text.length - pairs > limit) throw new Error(tooLong);
  return text;
}

async function upload(ev) {
  const file = ev.target.files[0];
  ev.target.value = "";
  if (!file) return;
  try {
    const text = await readText(file);
    const { value, lost } = await call("/api/upload", { text, name: file.name }, { exact: true });
    const edits = unsaved();
    if (openLayout(value.layout, file.name, lost, value.puzzle === true)) {
      toast(`opened ${file.name}${edits ? "; the board before it, not downloaded, is one Undo away" : ""}`, "info");
    }
  } catch (e) { fail(e); }
}

// JSON ↓ of a generated board not edited since saves generate's own board.json, byte for byte
// (through JavaScript numbers 0.0 would come back as 0); any other layout is written by the server.
async function download(format) {
  try {
    await saveAs(format);
  } finally {
    keepDraft();  // a board downloaded is kept no longer (a download draws nothing anew)
    showTitle();
  }
}

// A download saves the layout: leaving no longer asks, and a new board is named by its file from now on
// (the tab's title). A board opened from a file keeps that file's name (the build sheet's title).
function savedAs(layoutJson, name) {
  state.saved = layoutJson;
  state.fileName = state.fileName || name;
}

async function saveAs(format) {
  try {
    const g = state.generated;
    const stem = fileName().replace(/\.(json|txt)$/i, "") || "board";
    const shown = JSON.stringify(state.layout);
    if (format === "json" && g && g.layout === shown) {
      saveBlob(new Blob([g.text], { type: "application/json" }), `${stem}.json`);
      savedAs(shown, `${stem}.json`);
      return;
    }
    const blob = await call("/api/export", { layout: state.layout, format });
    const name = `${stem}.${format === "json" ? "json" : "txt"}`;
    saveBlob(blob, name);
    savedAs(shown, name);
  } catch (e) {
    // a stopped server cannot write the file, but the page holds the layout's JSON: the work is
    // saved as it is (the server's copy would sort the cells; the data is the same)
    if (format === "json" && e instanceof ApiError && e.status === 0) {
      const stem = fileName().replace(/\.(json|txt)$/i, "") || "board";
      saveBlob(new Blob([JSON.stringify(state.layout, null, 2) + "\n"], { type: "application/json" }), `${stem}.json`);
      savedAs(JSON.stringify(state.layout), `${stem}.json`);
      toast("the server does not answer: saved the page's own copy of the layout (JSON)", "info");
      return;
    }
    fail(e);
  }
}

// ---------------------------------------------------------------- jobs
// The buttons that start a job: while one runs in this tab they are greyed out with the reason (a
// click on Generate during a simulation only said so afterwards), and given back their own titles after.
const JOB_BUTTONS = ["#generate", "#simulate", "#build-sheet", "#kit"];
const BUSY_TITLE = "a job is running in this tab: wait for it, or Cancel it in the bar at the foot of the page";
function jobButtons(busy) {
  for (const sel of JOB_BUTTONS) {
    const b = $(sel);
    if (!("title" in b.dataset)) b.dataset.title = b.title;
    b.disabled = busy;
    b.title = busy ? BUSY_TITLE : b.dataset.title;
  }
}

const jobs = new JobRunner((job) => {
  const bar = $("#jobbar");
  jobButtons(!!job);
  if (!job) { bar.hidden = true; document.body.classList.remove("busy"); return; }
  bar.hidden = false;
  document.body.classList.add("busy");
  const p = job.progress || {};
  const prog = $("#job-progress");
  if (p.total) { prog.max = p.total; prog.value = p.done; } else { prog.removeAttribute("value"); }
  $("#job-text").textContent = `${job.kind}: ${p.message || "starting"} (${job.elapsed.toFixed(1)} s)`;
});

function guard(button, fn) {
  return async () => {
    if (jobs.busy) { toast("a job is already running in this tab; cancel it first", "info"); return; }
    closeToast();  // a message about the last try must not sit beside this one's result
    const focused = document.activeElement === button;
    button.disabled = true;  // a disabled button loses the focus to the page: it is given back after
    try { await fn(); } catch (e) { fail(e); } finally {
      button.disabled = false;
      if (focused && (document.activeElement === document.body || !document.activeElement)) button.focus();
    }
  };
}

function buildGenerateForm() {
  const form = $("#generate-form");
  for (const opt of state.info.generate) {
    const label = document.createElement("label");
    label.title = opt.help;
    let input;
    if (opt.type === "choice") {
      input = document.createElement("select");
      if (opt.default === null || opt.default === undefined) input.add(new Option(opt.shown_default ? `${opt.shown_default} (default)` : "(default)", ""));
      for (const c of opt.choices) {
        const value = typeof c === "string" ? c : c.value;
        const o = new Option(value, value, false, value === opt.default);
        if (typeof c !== "string") o.title = c.description;
        input.add(o);
      }
    } else if (opt.type === "flag") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!opt.default;
      input.dataset.default = String(!!opt.default);
    } else {
      input = document.createElement("input");
      input.type = opt.type === "text" ? "text" : "number";
      if (opt.type === "float") input.step = "any";
      if (opt.min !== undefined) input.min = opt.min;
      if (opt.max !== undefined) input.max = opt.max;
      input.placeholder = opt.default === null || opt.default === undefined ? (opt.shown_default || "default") : String(opt.default);
      // the command's seed 0 made the same board on every click: left empty, each Generate draws one
      if (opt.name === "seed") input.placeholder = "new each time";
    }
    input.name = opt.name;
    input.dataset.kind = opt.type;
    // the name in plain words, and the command line's flag as a small hint (a player who knows the
    // command finds their option; one who does not is not asked to know "--players")
    const name = document.createElement("span");
    name.className = "name";
    const flag = document.createElement("code");
    flag.className = "flag";
    flag.setAttribute("aria-hidden", "true");  // a screen reader read "Seats dash dash players"
    flag.textContent = opt.flag;
    name.append(opt.label || opt.flag.replace(/^--/, ""), " ", flag);
    label.append(name, input);
    form.appendChild(label);
  }
  const diff = form.elements.namedItem("difficulty");
  const showPreset = () => {
    const opt = state.info.generate.find((o) => o.name === "difficulty");
    const c = opt && opt.choices.find((x) => x.value === diff.value);
    $("#preset-description").textContent = c ? `${c.value}: ${c.description}` : "difficulty: medium unless a band is given";
  };
  if (diff) { diff.addEventListener("change", showPreset); showPreset(); }
}

function generateOptions() {
  const out = {};
  for (const input of $("#generate-form").elements) {
    if (!input.name) continue;
    const kind = input.dataset.kind;
    // a flag is sent only when it differs from its default: an unticked box of an option on by
    // default (expert-glance) must be sent as false, or the command would keep it on
    if (kind === "flag") { if (input.checked !== (input.dataset.default === "true")) out[input.name] = input.checked; continue; }
    notANumber(input);
    if (input.value === "") continue;
    // numbers as typed (2.5 stays 2.5, 1e1 is 10): the server says what is wrong with them, where
    // parseInt once turned 2.5 players into 2 without a word; whole numbers go as their digits
    out[input.name] = kind === "int" || kind === "float" ? numberOf(input.value) : input.value;
  }
  if (!("seed" in out)) out.seed = freshSeed();
  return out;
}

// A seed for a Generate with the field left empty: a new board each click, said with the board so
// that typing it in makes that board again
function freshSeed() {
  const draw = new Uint32Array(1);
  crypto.getRandomValues(draw);
  return draw[0] % 1000000;
}

async function generate() {
  // the last summary goes first, as simulate's table does: a failed run must not leave it untracked
  const box = $("#generate-box");
  delete box.dataset.layout;
  box.classList.remove("stale");
  for (const note of box.querySelectorAll(".stale-note, .note.error, .note.warn")) note.remove();
  $("#generate-summary").textContent = "";
  $("#generate-race-note").hidden = true;
  const editing = JSON.stringify(state.layout);  // the board as the run starts: edits meanwhile are named
  let job;
  clearMarks($("#generate-form"));
  const options = generateOptions();
  const drawn = $("#generate-form").elements.namedItem("seed").value === "";
  try {
    job = await jobs.run("generate", { options });
  } catch (e) {  // said in the tab too, as simulate says it
    if (!(e instanceof ApiError && e.status === 499)) box.prepend(errorNote(`no board: ${e.message}`));
    markField($("#generate-form"), e.message);
    throw e;
  }
  const seedLine = `seed ${options.seed} (drawn for this board: type it in "Random seed" to make it again)`;
  $("#generate-summary").textContent = (drawn ? [seedLine] : []).concat(job.result.summary).join("\n");
  const raceNote = $("#generate-race-note");
  raceNote.textContent = generateRaceNote(((job.result.layout || {}).players || []).map((p) => p.seat));
  raceNote.hidden = false;
  // the board as generate wrote it, read exactly (a seed above 2^53 in meta stays as it is), and
  // its bytes kept for JSON ↓ (the job's files go when this tab generates again, or in 30 minutes)
  const text = await (await call(fileLink(job.id, "board.json"))).text();
  const { value, lost } = parseExact(text);
  const before = state.layout;
  const exact = openLayout(value, "board.json", lost);  // false: it has said what it could not keep
  state.generated = { text, layout: JSON.stringify(state.layout) };
  state.saved = null;  // a generated board is a result not yet downloaded: leaving the page asks first
  resultsFor($("#generate-box"), state.generated.layout,
    "The board has been edited since it was generated: this summary is of the board as generated.");
  // the command's own warning, in its words: a board written when the search stopped short
  const warning = job.result.warning;
  if (warning) {
    const note = errorNote(`${warning.verdict}: ${warning.text}`);  // stays beside the board: the check's "valid" is about the rules only
    const unfair = warning.verdict.endsWith("NOT BALANCED");  // for seats, or "team play NOT BALANCED"
    if (!unfair) note.className = "note warn";  // UNVERIFIED: within the margin, short of the promise
    box.prepend(note);
    toast(warning.text, unfair ? "error" : "info");
  } else if (exact) {
    toast(JSON.stringify(before) !== editing ? "generated board opened in the editor; the edits made while it ran are one Undo away"
      : "generated board opened in the editor", "info");
  }
  if (TOUCH.matches) $("#board-box").scrollIntoView({ block: "start" });  // the form is a long scroll below the board on a phone
  else {  // on a desktop the tab scrolls in its box (the check stays in sight under it): the summary into view
    const panel = $("#panel"), summary = $("#generate-box");
    panel.scrollTop += summary.getBoundingClientRect().top - panel.getBoundingClientRect().top - panel.clientHeight / 3;
  }
}

function buildSimulateForm() {
  const f = $("#simulate-form");
  const sim = state.info.simulate;
  for (const p of sim.policies) f.elements.namedItem("policy").add(new Option(p, p));
  for (const name of ["games", "seed", "turn_cap", "margin"]) f.elements.namedItem(name).value = sim.defaults[name] ?? "";
  gamesHint();  // as terragen simulate: enough for the seat count, named with a rough time
  for (const name of ["policy", "margin"]) {
    for (const kind of ["input", "change"]) f.elements.namedItem(name).addEventListener(kind, gamesHint);
  }
  f.elements.namedItem("games").max = sim.max_games;
  f.elements.namedItem("policy").value = sim.defaults.policy;
  for (const v of sim.variants) {
    const l = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = v;
    box.addEventListener("change", gamesHint);  // team play's default is the teams' number of games
    l.append(box, ` ${v}`);
    $("#variants").appendChild(l);
  }
}

// The empty 'Games to play' field's placeholder: the games the command plays for this board's seat
// count at the default margin, and roughly how long they take with the chosen players (the slowest
// of a list); another margin plays another number, which the server picks.
function roughTime(s) { return s < 1.5 ? "a second" : s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`; }
function gamesHint() {
  const f = $("#simulate-form");
  const sim = state.info.simulate;
  const field = f.elements.namedItem("games");
  const seats = state.layout ? String(state.layout.players.length) : "";
  // team play: its default is the teams', as the command's (two or three teams, not four or six seats)
  const teams = !!document.querySelector("#variants input[value='teams']:checked");
  const n = seats ? (teams ? sim.default_team_games[seats] : sim.default_games[seats]) : undefined;
  const margin = f.elements.namedItem("margin").value;
  if (!n || (margin !== "" && Number(margin) !== sim.defaults.margin)) { field.placeholder = "default"; return; }
  const paces = f.elements.namedItem("policy").value.split(",").map((p) => sim.pace[p.trim()]).filter(Boolean);
  // (the paces are lone players': team games go through slower steps, 10x for solitary ones, so no time)
  const time = paces.length && !teams ? ` (about ${roughTime(n / Math.min(...paces))})` : "";
  field.placeholder = `${n.toLocaleString("en")}${time}`;
}

// A number field holding text the browser cannot read as a number reads as empty, which would
// quietly mean "the default": refuse it instead.
function notANumber(input) {
  if (input.validity && input.validity.badInput) throw new Error(`${input.name.replace(/_/g, "-")}: not a number`);
}

// A number field as typed, or null when empty (the server's default); the server refuses what is
// not a whole number where one is needed, rather than the page cutting 2.7 games to 2.
function numberIn(form, name) {
  notANumber(form.elements.namedItem(name));
  const v = form.elements.namedItem(name).value;
  return v === "" ? null : numberOf(v);
}

// A number field's text for the request: a whole number as its exact digits (a seed may be up to
// 2^63-1, beyond what a JavaScript number holds), anything else as a number the server judges.
function numberOf(text) {
  return /^[-+]?\d+$/.test(text.trim()) ? new Digits(text.trim()) : Number(text);
}

async function simulate() {
  // the last run's table goes first: a refused or failed run must not leave it under the new values
  const f = $("#simulate-form");
  const box = $("#simulate-result");
  box.replaceChildren();
  clearMarks(f);
  delete box.dataset.layout;
  box.classList.remove("stale");
  try {
    const options = {
      games: numberIn(f, "games"),
      seed: numberIn(f, "seed"),
      policy: f.elements.namedItem("policy").value,
      turn_cap: numberIn(f, "turn_cap"),
      margin: numberIn(f, "margin"),
      variants: [...document.querySelectorAll("#variants input:checked")].map((b) => b.value),
    };
    const sent = JSON.stringify(state.layout);
    const job = await jobs.run("simulate", { layout: state.layout, options });
    // the seed as sent: the report's own, read as a JavaScript number, is rounded above 2^53
    showSimulation(job.result.report, options.seed instanceof Digits ? options.seed.text : null, job.result.note,
      job.result.shown);
    resultsFor(box, sent, "The board has been edited since these games were played: simulate again for this board.");
  } catch (e) {
    const note = document.createElement("p");
    note.className = "note error";
    note.textContent = `no result: ${e.message}`;
    box.appendChild(note);
    markField($("#simulate-form"), e.message);
    throw e;
  }
}

// A refused option names its field as the form does ("Seats (--players) must be 2-6"): that field is
// marked invalid and takes the focus, so a keyboard or screen-reader user lands on what to change.
// The marks go at the form's next run.
function markField(form, message) {
  const named = /\((--[a-z0-9-]+)\)/.exec(message || "");
  const flag = named && [...form.querySelectorAll("code.flag")].find((c) => c.textContent === named[1]);
  const input = flag && flag.closest("label") && flag.closest("label").querySelector("input, select");
  if (!input) return;
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

function clearMarks(form) {
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

function errorNote(text) {
  const note = document.createElement("p");
  note.className = "note error";
  note.textContent = text;
  return note;
}

// `note`: the command's own "note: N games are a quick look ..." when fewer games were played than
// the board's default, whose verdict can go either way
// `shown`: each seat's rate, interval ends and fair share as the command prints them (the report's
// figures are rounded to 4 places, and rounding them again here could differ from the command's)
function showSimulation(rep, seed = null, note = null, shown = null) {
  const box = $("#simulate-result");
  box.replaceChildren();
  const verdicts = document.createElement("p");
  verdicts.className = "verdicts";
  // PLAYABLE (games finish) and, where this simulator judges it, BALANCED (every seat near its fair share)
  const names = rep.playable === undefined ? [["playable", rep.verdict]]
    : [["playable", rep.playable ? "PLAYABLE" : "NOT PLAYABLE"]];
  if (rep.balanced !== undefined) names.push(["balanced", rep.balanced ? "BALANCED" : "NOT BALANCED"]);
  for (const [what, text] of names) {
    const s = document.createElement("span");
    s.className = "verdict " + (/NOT/.test(text) ? "invalid" : "valid");
    s.dataset.what = what;
    s.textContent = text;
    verdicts.appendChild(s);
  }
  box.appendChild(verdicts);
  if (note) {
    const quick = document.createElement("p");
    quick.className = "quick-look";  // not a "note": the games' line under the table is the first of those
    quick.textContent = `note: ${note}`;
    box.appendChild(quick);
  }
  const table = document.createElement("table");
  table.className = "sim";
  table.innerHTML = "<thead><tr><th>seat</th><th>player</th><th>wins</th><th>win rate</th><th>95% interval</th><th>fair</th><th></th></tr></thead>";
  const tb = document.createElement("tbody");
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  for (const [n, s] of rep.seats.entries()) {
    const tr = document.createElement("tr");
    const [lo, hi] = s.ci95;
    const said = (shown && shown[n]) || { win_rate: pct(s.win_rate), ci95: [pct(lo), pct(hi)], fair: pct(s.fair) };
    const bar = document.createElement("span");
    bar.className = "ci";
    const range = document.createElement("span");
    range.className = "ci-range";
    range.style.setProperty("--lo", lo);
    range.style.setProperty("--hi", hi);
    const fair = document.createElement("span");
    fair.className = "ci-fair";
    fair.style.setProperty("--f", s.fair);
    bar.append(range, fair);
    const interval = td(`${said.ci95[0]} –`, " ", said.ci95[1]);  // on a phone the two ends go on two lines
    interval.className = "interval";
    tr.append(td(swatch(s.seat), String(s.seat)), td(s.policy), td(String(s.wins)), td(said.win_rate),
      interval, td(said.fair), td(bar));
    tb.appendChild(tr);
  }
  table.appendChild(tb);
  box.appendChild(table);
  const t = rep.turns_to_finish || {};
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = `${rep.games} games, seed ${seed ?? rep.seed}, ${rep.variant}; turns to finish mean ${fmt(t.mean, 1)}, p90 ${fmt(t.p90, 0)}; `
    + `${(100 * rep.capped_share).toFixed(1)}% hit the ${rep.turn_cap}-round cap.`;
  box.appendChild(p);
  for (const r of [...(rep.reasons || []), ...(rep.balance_reasons || [])]) {
    const li = document.createElement("p");
    li.className = "reason";
    li.textContent = r;
    box.appendChild(li);
  }
}

// The files of a finished job, each a link. The server keeps them for a while only (docs/web.md):
// a click fetches the file first, so a link whose job is gone says so and is struck out, where a
// plain link would download nothing, or an error page, without a word.
function listFiles(job) {
  const ul = $("#print-files");
  dropLinksOf(job.kind);
  const items = job.files.map((name) => {
    const li = document.createElement("li");
    li.dataset.kind = job.kind;
    const a = document.createElement("a");
    a.href = fileLink(job.id, name);
    a.download = name;
    a.textContent = name;
    a.addEventListener("click", (ev) => { ev.preventDefault(); saveJobFile(job, name); });
    li.appendChild(a);
    return li;
  });
  ul.prepend(...items);  // the newest job's files first; the other kind's stay (a kit no longer hid the sheet)
  // the new links in sight: "6 PDF files below" sat over a list cut off at the foot of the panel
  if (items.length) items[items.length - 1].scrollIntoView({ block: "nearest" });
  return ul;
}

// A new job of a kind makes the server forget this tab's last one of that kind: its links go now.
function dropLinksOf(kind) {
  for (const li of document.querySelectorAll(`#print-files li[data-kind="${kind}"]`)) li.remove();
}

async function saveJobFile(job, name) {
  const what = job.kind === "kit" ? "make the kit again" : "make the build sheet again";
  const gone = `${name} is no longer on the server: ${what}`;
  const mine = [...document.querySelectorAll(`#print-files li[data-kind="${job.kind}"] a`)];
  if (mine.some((link) => link.classList.contains("gone"))) { toast(gone); return; }
  try {
    saveBlob(await call(fileLink(job.id, name)), name);
  } catch (e) {
    if (e.status !== 404) { fail(e); return; }
    const why = "the server keeps a job's files for 30 minutes, and only until this tab runs another job of the "
      + "same kind or 20 newer jobs have finished";
    for (const link of mine) {
      link.removeAttribute("href");
      link.classList.add("gone");
      link.title = `no longer on the server: ${what}`;
    }
    const note = document.createElement("li");
    note.className = "note error";
    note.dataset.kind = job.kind;
    note.textContent = `These files are no longer on the server (${why}): ${what}.`;
    mine[mine.length - 1].parentElement.after(note);
    toast(gone);
  }
}

async function buildSheet() {
  dropLinksOf("build-sheet");
  const job = await jobs.run("build-sheet", { layout: state.layout, paper: $("#sheet-paper").value, name: fileName(),
    palette: $("#sheet-palette").value });
  listFiles(job);
  const a = document.createElement("a");
  a.href = fileLink(job.id, job.files[0]);
  a.download = job.files[0];
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function makeKit() {
  const cut = $("#kit-outlines").value;  // "" leaves each piece as the kit draws it by default
  const options = { paper: $("#kit-paper").value, flip: $("#kit-flip").value, outlines: cut === "" ? null : cut === "on",
    low_ink: $("#kit-low-ink").checked, back_offset: $("#kit-back-offset").value.trim() || null };
  const game = $("#kit-game").value;
  if (game === "terrain") {
    options.nets = $("#kit-nets").checked;
    options.palette = $("#kit-palette").value;
    // the board sheets of the board on the page, when the kit has its size (radius 3-6)
    const r = state.layout.radius;
    if (r >= 3 && r <= 6) options.radius = r;
  }
  dropLinksOf("kit");
  const job = await jobs.run("kit", { game, options });
  listFiles(job);
  toast(`${state.info.kit_names[game] || game} kit ready: ${job.files.length} PDF files below`, "info");
}

// ---------------------------------------------------------------- set-up
// A row of value buttons is a named radio group ("level", "rotation"), each button named with it
// ("level 1", "rotation 1": a screen reader heard eighteen buttons called "1" ... "8", "A" ... "D",
// "0" ... "5") and checked when it is the selected cell's value. One value of each at a time: radios,
// not toggle buttons. The arrow keys only move among them (see rovingGroup); Enter or Space sets one.
function buttons(container, values, onClick, what) {
  container.setAttribute("role", "radiogroup");
  container.setAttribute("aria-label", what);
  for (const v of values) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = String(v);
    b.dataset.value = String(v);
    b.setAttribute("role", "radio");
    b.setAttribute("aria-label", `${what} ${v}`);
    b.setAttribute("aria-checked", "false");
    b.addEventListener("click", () => onClick(v));
    container.appendChild(b);
  }
}

// ---------------------------------------------------------------- button groups: one Tab stop each
// A row of buttons (the levels, the patterns, the turns; the foot bar as a whole) is one Tab stop, as
// the WAI-ARIA radio group and toolbar patterns have it, with a roving tabindex: from the board, Tab
// reached "Destination of" after some 22 presses, one per button. Tab enters a group on its checked
// button (else its first); the arrow keys, Home and End move in it, round from the last to the first;
// Enter or Space presses the button as before. An arrow only moves: setting the cell's level at each
// step would make an edit (and an undo step) of every button passed on the way.
const GROUP_STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
const GROUPS = ["#level-buttons", "#pattern-buttons", "#rotation-buttons", "#edit-bar"];

function rovingGroup(group) {
  group.addEventListener("keydown", (ev) => groupKeys(group, ev));
  group.addEventListener("focusin", (ev) => { if (ev.target.matches("button")) setStop(group, ev.target); });
  // leaving the group, its stop goes back to the checked button, where the next Tab into it lands
  group.addEventListener("focusout", (ev) => { if (!group.contains(ev.relatedTarget)) restStop(group); });
  restStop(group);
}

function groupKeys(group, ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
  const items = [...group.querySelectorAll("button")].filter((b) => !b.disabled);
  const at = items.indexOf(ev.target);
  const to = ev.key === "Home" ? 0 : ev.key === "End" ? items.length - 1 : at + GROUP_STEPS[ev.key];
  if (at < 0 || Number.isNaN(to)) return;  // any other key is the page's: 1-8, A-D, R, T, Delete, Ctrl-Z
  const next = items[(to + items.length) % items.length];
  setStop(group, next);
  next.focus();
  ev.preventDefault();
  ev.stopPropagation();  // the page's own arrows would move the board's selection too
}

function setStop(group, button) {
  for (const b of group.querySelectorAll("button")) b.tabIndex = b === button ? 0 : -1;
}

// The group's one Tab stop on its checked (or pressed) button, else its first. Not while the focus is
// in the group: a redraw after Enter must not move the stop away from the button the keys are on.
function restStop(group) {
  if (group.contains(document.activeElement)) return;
  const items = [...group.querySelectorAll("button")];
  const chosen = items.find((b) => b.getAttribute("aria-checked") === "true" || b.getAttribute("aria-pressed") === "true");
  setStop(group, chosen || items.find((b) => !b.disabled) || items[0]);
}

// ---------------------------------------------------------------- the toolbar above the board
// One Tab stop for the whole toolbar (the WAI-ARIA toolbar pattern, as the radio groups have it): its
// ten controls were ten stops between the page's top and the board. Tab lands on the control last
// used (else the first); Left and Right (Up and Down but on the radius list, whose value they step),
// Home and End move along it, round the ends; a greyed-out Undo or Redo, or a control folded away,
// is passed over. In a narrow or zoomed window (style.css) the less used commands fold into "Menu":
// a disclosure whose panel, open, is part of the toolbar; Escape, a click elsewhere or leaving the
// toolbar closes it, and so does a command chosen in it. Every other key is the page's (1-8, A-D, R,
// Ctrl-Z ...), as before.
const TOOLBAR_ITEMS = "button, select, input[type=checkbox]";
let toolbarStop = null;

function toolbarItems() {
  return [...$("#toolbar").querySelectorAll(TOOLBAR_ITEMS)].filter((e) => !e.disabled && e.getClientRects().length > 0);
}

function restToolbar() {
  const items = toolbarItems();
  if (!items.includes(toolbarStop)) toolbarStop = items[0] || null;
  for (const e of $("#toolbar").querySelectorAll(TOOLBAR_ITEMS)) e.tabIndex = e === toolbarStop ? 0 : -1;
}

function toolbarKeys(ev) {
  if (ev.key === "Escape" && menuOpen()) {
    closeMenu();
    $("#menu-button").focus();
    ev.preventDefault();
    ev.stopPropagation();
    return;
  }
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
  const vertical = ev.key === "ArrowUp" || ev.key === "ArrowDown";
  if (vertical && ev.target.tagName === "SELECT") return;  // the list's own: the radius, one step
  if (ev.key === "ArrowDown" && ev.target.id === "menu-button" && !menuOpen()) openMenu();  // into the menu
  const items = toolbarItems();
  const at = items.indexOf(ev.target);
  const to = ev.key === "Home" ? 0 : ev.key === "End" ? items.length - 1 : at + GROUP_STEPS[ev.key];
  if (at < 0 || Number.isNaN(to)) return;
  const next = items[(to + items.length) % items.length];
  toolbarStop = next;
  restToolbar();
  next.focus();
  ev.preventDefault();
  ev.stopPropagation();  // the page's own arrows would move the board's selection too
}

function menuOpen() { return $("#menu-button").getAttribute("aria-expanded") === "true"; }
function openMenu() {
  $("#menu-button").setAttribute("aria-expanded", "true");
  $("header").classList.add("menu-open");
  restToolbar();
}
function closeMenu() {
  if (!menuOpen()) return;
  const inside = $("#more").contains(document.activeElement);
  $("#menu-button").setAttribute("aria-expanded", "false");
  $("header").classList.remove("menu-open");
  if (inside) { toolbarStop = $("#menu-button"); $("#menu-button").focus({ preventScroll: true }); }
  restToolbar();
}

function toolbar() {
  const bar = $("#toolbar");
  bar.addEventListener("keydown", toolbarKeys);
  bar.addEventListener("focusin", (ev) => { if (ev.target.matches(TOOLBAR_ITEMS)) { toolbarStop = ev.target; restToolbar(); } });
  bar.addEventListener("focusout", (ev) => { if (!bar.contains(ev.relatedTarget) && ev.relatedTarget) closeMenu(); });
  $("#menu-button").addEventListener("click", () => { if (menuOpen()) closeMenu(); else openMenu(); });
  // a command chosen in the menu closes it (a tick box leaves it open: the view's boxes go together)
  for (const id of ["#new-board", "#open-file", "#download-json", "#download-text"]) {
    $(id).addEventListener("click", () => closeMenu());
  }
  document.addEventListener("pointerdown", (ev) => { if (!bar.contains(ev.target)) closeMenu(); });
  HEADER_FOLDED.addEventListener("change", () => { closeMenu(); restToolbar(); showHover(); });
  restToolbar();
}

function fillSelect(sel, values, chosen) {
  for (const v of values) sel.add(new Option(String(v), String(v), false, v === chosen));
}

function buildLegend() {
  const box = $("#legend");
  const levels = document.createElement("span");
  levels.append("levels ");
  for (const lv of state.info.levels) {
    const chip = document.createElement("span");
    chip.className = "level-chip";
    chip.style.setProperty("--c", state.info.colours.levels[String(lv)]);
    chip.style.setProperty("--ink", state.info.colours.ink[String(lv)]);
    chip.textContent = String(lv);
    levels.appendChild(chip);
  }
  const items = [["pip", "● exit (pip)"], ["cliff", "▬ cliff (more than 3 levels)"], ["start", "◌ start corner"],
    ["flag", "⚑ destination"], ["hatch", "▨ inverted"]];
  box.appendChild(levels);
  for (const [cls, text] of items) {
    const s = document.createElement("span");
    s.className = `legend-${cls}`;
    s.textContent = text;
    box.appendChild(s);
  }
}

async function main() {
  try {
    state.info = await call("/api/info");
  } catch (e) { fail(e); return; }
  const info = state.info;
  $("#version").textContent = info.version;
  fillSelect($("#new-radius"), info.radii, 5);
  backToBoard($("#dest-seat"));
  buttons($("#level-buttons"), info.levels, setLevel, "level");
  buttons($("#pattern-buttons"), info.patterns, setPattern, "pattern");
  buttons($("#rotation-buttons"), info.rotations, setRotation, "rotation");
  buttons($("#bar-levels"), info.levels, setLevel, "level");
  buttons($("#bar-patterns"), info.patterns, setPattern, "pattern");
  $("#bar-rotate-ccw").addEventListener("click", () => rotate(1));
  $("#bar-rotate-cw").addEventListener("click", () => rotate(-1));
  $("#bar-done").addEventListener("click", () => { state.selected = null; render(); });
  for (const id of GROUPS) rovingGroup($(id));
  for (const sel of document.querySelectorAll("select.paper")) fillSelect(sel, info.papers, "a4");
  for (const game of info.kits) $("#kit-game").add(new Option(info.kit_names[game] || game, game, false, game === "terrain"));
  fillSelect($("#kit-flip"), info.flips, "long");
  for (const sel of document.querySelectorAll("select.palette")) fillSelect(sel, info.palettes, "colour");
  // fold-up nets and palettes exist for the Terrain Game only: greyed out for the others
  $("#kit-game").addEventListener("change", () => {
    for (const id of ["#kit-nets", "#kit-palette"]) $(id).disabled = $("#kit-game").value !== "terrain";
  });
  buildGenerateForm();
  buildSimulateForm();
  buildLegend();
  $("h1").title = `terragen ${info.version}`;  // (the version is out of sight in a narrow window)

  $("#new-board").addEventListener("click", newBoard);
  $("#upload").addEventListener("change", upload);
  $("#open-file").addEventListener("click", () => $("#upload").click());  // a button: Tab reaches it
  $("#toast").addEventListener("click", closeToast);
  $("#download-json").addEventListener("click", () => download("json"));
  $("#download-text").addEventListener("click", () => download("text"));
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#view-3d").addEventListener("change", render);
  $("#show-routes").addEventListener("change", () => { state.routesOff.clear(); state.routes.clear(); render(); });
  $("#inverted").addEventListener("change", toggleInverted);
  $("#remove-piece").addEventListener("click", removePiece);
  $("#toggle-dest").addEventListener("click", toggleDestination);
  $("#add-player").addEventListener("click", addPlayer);
  $("#generate").addEventListener("click", guard($("#generate"), generate));
  $("#simulate").addEventListener("click", guard($("#simulate"), simulate));
  $("#build-sheet").addEventListener("click", guard($("#build-sheet"), buildSheet));
  $("#kit").addEventListener("click", guard($("#kit"), makeKit));
  $("#job-cancel").addEventListener("click", () => jobs.cancel().catch(fail));
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.addEventListener("keydown", tabKeys);
    tab.addEventListener("click", () => {
      for (const t of document.querySelectorAll(".tabs button")) {
        t.classList.toggle("active", t === tab);
        t.setAttribute("aria-selected", String(t === tab));
        t.tabIndex = t === tab ? 0 : -1;  // one stop for the tab list; the arrow keys move in it
      }
      for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== `tab-${tab.dataset.tab}`;
      updateEditBar();
    });
  }
  const svg = $("#board");
  // A cell is chosen when the press ends, not by "click": a key redraws the board when its check
  // answers (~90 ms), and a press that spanned that redraw had begun on a cell element since replaced,
  // so no click came at all and the next key edited the cell selected before. The press's end finds
  // the cell under the pointer as drawn now; a press that moved (a scroll, a drag) chooses nothing.
  let press = null;
  let pickedAt = -Infinity;
  const cellUnder = (ev) => {  // (cellAt finds a layout's cell by position)
    const hit = ev.target.closest("g.cell") || document.elementFromPoint(ev.clientX, ev.clientY);
    return hit && hit.closest ? hit.closest("g.cell") : null;
  };
  svg.addEventListener("pointerdown", (ev) => { press = ev.button === 0 ? [ev.clientX, ev.clientY] : null; });
  svg.addEventListener("pointercancel", () => { press = null; });
  svg.addEventListener("pointerup", (ev) => {
    const near = press && Math.hypot(ev.clientX - press[0], ev.clientY - press[1]) <= 10;
    if (press) pickedAt = ev.timeStamp;  // a press of the pointer decides here, a drag too (the click after it must not)
    press = null;
    const g = near ? cellUnder(ev) : null;
    if (g) select(Number(g.dataset.q), Number(g.dataset.r));
  });
  svg.addEventListener("click", (ev) => {  // a click with no press before it (assistive software)
    if (ev.timeStamp - pickedAt < 1000) return;
    const g = cellUnder(ev);
    if (g) select(Number(g.dataset.q), Number(g.dataset.r));
  });
  svg.addEventListener("mousemove", (ev) => {
    const g = ev.target.closest("g.cell");
    if (!g) return;
    state.hovered = [Number(g.dataset.q), Number(g.dataset.r)];
    showHover();
  });
  svg.addEventListener("mouseleave", () => { state.hovered = null; showHover(); });
  toolbar();
  document.addEventListener("keydown", onKey);
  document.addEventListener("focusin", keepFocusClearOfBar);
  new ResizeObserver(() => fitBoard()).observe($("#board-box"));
  TOUCH.addEventListener("change", () => { fitBoard(); showHover(); updateEditBar(); });
  ONE_COLUMN.addEventListener("change", updateEditBar);
  window.addEventListener("scroll", updateEditBar, { passive: true });
  window.addEventListener("resize", updateEditBar);
  FINGERS.addEventListener("change", showHover);
  $("#whole-board").addEventListener("change", () => { drawnView = ""; fitBoard(); });
  // a reload or a closed tab would lose edits not downloaded: the browser asks first
  window.addEventListener("beforeunload", (ev) => {
    if (unsaved() || jobs.busy) {  // leaving ends a running job too (a 60 s generate, lost without a word)
      ev.preventDefault();
      ev.returnValue = "";  // what older browsers look for
    }
  });
  state.layout = (await call("/api/empty", { radius: 5 })).layout;
  state.saved = JSON.stringify(state.layout);
  if (!restoreDraft()) {
    renderPlayers();
    scheduleCheck(0);
  }
  document.body.dataset.ready = "1";
}

main();

// Drawing the board as SVG, flat (2D) or as isometric prisms (3D).
// Pure presentation: what is an exit, a cliff or an error comes from the server's check.

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 30;               // hex circumradius in drawing units
const SQ3 = Math.sqrt(3);
const TILT = 0.55;             // 3D: how much the board plane is squashed vertically
const STEP = 7;                // 3D: drawing units per level (a level is 6 mm on a 50 mm piece)

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export function key(q, r) { return `${q},${r}`; }

// The narrower side of a cell's top face, in drawing units: its width flat (pointy-top), its
// squashed height in 3D. The page scales the drawing so this is never below a finger's width.
export function cellSpan(view3d) { return Math.min(SIZE * SQ3, 2 * SIZE * (view3d ? TILT : 1)); }

// A seat's colour by its rank among the layout's seats, as the CLI's pictures colour them: a file
// may number its seats 1 and 7, which by number would share a colour.
export function seatColour(palette, layout, seat) {
  return palette[seatRank(layout, seat) % palette.length];
}

function seatRank(layout, seat) {
  const seats = [...new Set((layout.players || []).map((p) => p.seat))].sort((a, b) => a - b);
  const rank = seats.indexOf(seat);
  return rank < 0 ? seat : rank;
}

// The printed kit's token of a seat (P1.. by the same rank as its colour), as the build sheet names
// the seats: a board of seats 0 and 3 plays with the kit's P1 and P2 (render's token_name).
export function tokenName(palette, layout, seat) {
  return `P${(seatRank(layout, seat) % palette.length) + 1}`;
}

// axial -> flat drawing coordinates, pointy-top, r grows downward
function centre(q, r) { return [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r]; }
// the six corners' positions in corner order, as the layout file numbers them: each corner is R steps
// along its direction, which the server sends (/api/info's corner_directions, from the hex grid's own)
export function cornerHexes(R, directions) { return directions.map(([q, r]) => [q * R, r * R]); }
// direction d points at 60*d degrees counter-clockwise from east (screen y grows downward)
function dirVec(d) { const a = Math.PI / 3 * d; return [Math.cos(a), -Math.sin(a)]; }
function cornerVec(k) { const a = Math.PI / 6 + Math.PI / 3 * k; return [Math.cos(a), -Math.sin(a)]; }

function shade(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.max(0, Math.min(255, Math.round(v * f))));
  return "#" + c.map((v) => v.toString(16).padStart(2, "0")).join("");
}

function pts(list) { return list.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" "); }

// Everything the picture needs, gathered from the layout and the last check.
export function boardModel(layout, check, directions) {
  const cells = new Map();
  for (const c of layout.cells) if (!cells.has(key(c.q, c.r))) cells.set(key(c.q, c.r), c);
  const exits = new Map();
  if (check && check.board && check.board.radius === layout.radius) {
    for (const c of check.board.cells) exits.set(key(c.q, c.r), c.exits);
  }
  // the board's positions and the seats' start rings come from the layout itself: taken from the
  // check, they vanished (leaving the pieces alone) while the server did not answer
  const R = layout.radius;
  const positions = [];
  for (let r = -R; r <= R; r++) {
    for (let q = Math.max(-R, -r - R); q <= Math.min(R, -r + R); q++) positions.push([q, r]);
  }
  const marks = new Map();   // key -> "error" | "warning"
  const notes = new Map();   // key -> messages
  if (check) {
    const toDo = new Set(check.to_do || []);  // work not yet done: noted, not outlined as a mistake
    for (const [sev, list] of [["warning", check.report.warnings], ["error", check.report.errors]]) {
      for (const [i, f] of list.entries()) {
        const pending = sev === "error" && toDo.has(i);
        for (const [q, r] of f.cells) {
          const k = key(q, r);
          if (!pending && (sev === "error" || marks.get(k) !== "error")) marks.set(k, sev);
          if (!notes.has(k)) notes.set(k, []);
          notes.get(k).push(`${pending ? "to do" : sev}: ${f.message}`);
        }
      }
    }
  }
  const starts = new Map();
  const dests = new Map();
  const corners = cornerHexes(R, directions);
  for (const p of layout.players) {
    const at = Number.isInteger(p.corner) ? corners[p.corner] : undefined;
    if (at) starts.set(key(at[0], at[1]), p.seat);
  }
  layout.players.forEach((p, i) => {
    (p.destinations || []).forEach((d, j) => {
      const k = key(d.q, d.r);
      if (!dests.has(k)) dests.set(k, []);
      dests.get(k).push({ seat: p.seat, index: i, n: j + 1 });
    });
  });
  return { cells, exits, positions, marks, notes, starts, dests, cliffs: check && check.board ? check.board.cliffs : [] };
}

// The id of a cell's element: the board's aria-activedescendant names the selected one.
export function cellId(q, r) { return `cell_${q}_${r}`; }

// A finding's message without the list of every cell it names ("to do: 91 board positions have no
// piece: (0,-5), (1,-5), ..." read at each cell): what a screen reader hears of it on one cell.
export function shortNote(note) { return note.replace(/: \(-?\d+,-?\d+\).*$/, ""); }

// What a screen reader hears for a cell: its position, its piece (level, pattern, rotation, inverted)
// or "empty", what stands on it (a seat's start corner, a seat's destination) and its own problems,
// as the drawing shows them: "(0,-5): level 6, pattern D, rotation 3; start corner of seat 0 (P1);
// error: piece at (0,-5) has level 9; levels run 1 to 8".
export function cellLabel(m, q, r, layout, palette) {
  const k = key(q, r);
  const cell = m.cells.get(k);
  const parts = [`(${q},${r}): ${cell ? `level ${cell.level}, pattern ${cell.pattern}, rotation ${cell.rotation}${cell.inverted ? ", inverted" : ""}` : "empty"}`];
  const seatName = (seat) => `seat ${seat} (${tokenName(palette, layout, seat)})`;
  if (m.starts.has(k)) parts.push(`start corner of ${seatName(m.starts.get(k))}`);
  for (const d of m.dests.get(k) || []) parts.push(`destination ${d.n} of ${seatName(d.seat)}`);
  for (const note of m.notes.get(k) || []) parts.push(shortNote(note));
  return parts.join("; ");
}

// Draw the board into `svg`. opts: {colours, selected, view3d, routes: [{seat, path}]}
// how many rings beyond the board the view widens to show a piece off it
const OFF_BOARD_VIEW = 6;

export function drawBoard(svg, layout, check, opts) {
  const m = boardModel(layout, check, opts.cornerDirections);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const keys = new Set(m.positions.map(([q, r]) => key(q, r)));
  for (const k of m.cells.keys()) keys.add(k);
  const all = [...keys].map((k) => k.split(",").map(Number)).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const R = layout.radius;
  const w = SIZE * SQ3 * (2 * R + 2);
  const h3 = opts.view3d ? TILT : 1;
  const lift = opts.view3d ? STEP * 9 : 0;
  const hgt = SIZE * (3 * R + 2.5) * h3 + lift;
  // the board's own view, widened to take in a piece off the board (a file's (9,0) on a radius-5
  // board was drawn outside it: unseen, though its finding selects it)
  let [x0, y0, x1, y1] = [-w / 2, -SIZE * (1.5 * R + 1.2) * h3 - lift, 0, 0];
  [x1, y1] = [x0 + w, y0 + hgt];
  for (const [q, r] of all) {
    const d = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
    // a piece far out (a file's (100000,-3)) would shrink the board to nothing, unusable: the view
    // widens by at most OFF_BOARD_VIEW rings, and the findings list still names the rest
    if (d <= R || d > R + OFF_BOARD_VIEW) continue;
    const [cx, cy] = centre(q, r);
    x0 = Math.min(x0, cx - SIZE * SQ3); x1 = Math.max(x1, cx + SIZE * SQ3);
    y0 = Math.min(y0, (cy - 1.5 * SIZE) * h3 - lift); y1 = Math.max(y1, (cy + 1.5 * SIZE) * h3);
  }
  svg.setAttribute("viewBox", `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`);
  const defs = el("defs", { "aria-hidden": "true" }, svg);
  const pat = el("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 6, height: 6, fill: "#777" }, pat);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#222", "stroke-width": 2.5 }, pat);

  const layer = el("g", { class: opts.view3d ? "board3d" : "board2d" }, svg);
  // For a screen reader the board is a grid: a row per r (top to bottom), a cell per position (q left
  // to right), each named in words (cellLabel); the lines, rings and flags drawn over the cells are
  // hidden from it, as each cell's name says what they show.
  const rows = [...new Set(all.map(([, r]) => r))];
  svg.setAttribute("aria-rowcount", String(rows.length));
  let row = null, rowR = null;
  const project = opts.view3d
    ? (x, y, z) => [x, y * TILT - z * STEP]
    : (x, y) => [x, y];
  const colours = opts.colours;
  const markers = [];  // [key, x, y] of cells with a start or flags, drawn last
  const outlines = [];  // [q, r, classes, points] of marked or selected cells, drawn over the cliffs

  for (const [q, r] of all) {
    const k = key(q, r);
    const cell = m.cells.get(k);
    const [cx, cy] = centre(q, r);
    const z = cell && !opts.flat ? Math.max(0, Math.min(12, cell.level)) : 0;
    if (row === null || rowR !== r) {
      row = el("g", { class: "row", role: "row", "aria-rowindex": String(rows.indexOf(r) + 1) }, layer);
      rowR = r;
    }
    const g = el("g", { class: "cell", "data-q": q, "data-r": r, id: cellId(q, r), role: "gridcell" }, row);
    if (m.marks.has(k)) g.classList.add(m.marks.get(k));
    if (!cell) g.classList.add("empty");
    const chosen = !!(opts.selected && opts.selected[0] === q && opts.selected[1] === r);
    if (chosen) g.classList.add("selected");
    g.setAttribute("aria-selected", String(chosen));
    g.setAttribute("aria-label", cellLabel(m, q, r, layout, colours.seats));
    // an empty position is white (with its dashed rim): the light grey it had was level 8's own
    const fill = cell ? (colours.levels[String(cell.level)] || "#cccccc") : "#ffffff";
    const corner = (i, zz, s = 1) => project(cx + SIZE * s * cornerVec(i)[0], cy + SIZE * s * cornerVec(i)[1], zz);
    if (opts.view3d && cell && z > 0) {
      // the two walls facing the viewer (edges towards SW and SE), from the ground to the top
      for (const [a, b, f] of [[3, 4, 0.62], [4, 5, 0.78]]) {
        el("polygon", { class: "wall", points: pts([corner(a, z), corner(b, z), corner(b, 0), corner(a, 0)]), fill: shade(fill, f) }, g);
      }
    }
    const face = pts([0, 1, 2, 3, 4, 5].map((i) => corner(i, z)));
    const top = el("polygon", { class: "top", points: face, fill }, g);
    const outlined = [...g.classList].filter((c) => ["error", "warning", "selected", "empty"].includes(c));
    if (outlined.some((c) => c !== "empty")) outlines.push([q, r, outlined, face]);
    if (cell && cell.inverted) { top.setAttribute("fill", "url(#hatch)"); }
    const [tx, ty] = project(cx, cy, z);
    if (cell) {
      for (const d of m.exits.get(k) || []) {
        const [dx, dy] = dirVec(d);
        const [px, py] = project(cx + dx * SIZE * 0.66, cy + dy * SIZE * 0.66, z);
        el("circle", { class: "pip", cx: px.toFixed(2), cy: py.toFixed(2), r: 3.4 }, g);
      }
      const label = el("text", { x: tx.toFixed(2), y: (ty + 4).toFixed(2), class: "label", fill: colours.ink[String(cell.level)] || "#111" }, g);
      label.textContent = `${cell.level}${cell.pattern}`;
    }
    if (m.starts.has(k) || m.dests.has(k)) markers.push([k, tx, ty]);
    // the line under the board says this of the cell under the pointer (app.js: showHover); it was the
    // cell's <title>, which a screen reader read after the cell's name as its description, and so
    // heard the 91 positions a finding names at every empty cell. Neither says that list now: on a
    // phone it took four lines under the board, the same at every empty cell
    const what = cell ? `level ${cell.level}, pattern ${cell.pattern}, rotation ${cell.rotation}${cell.inverted ? ", inverted" : ""}` : "empty";
    g.dataset.info = [`(${q},${r}) ${what}`, ...(m.notes.get(k) || []).map(shortNote)].join(" · ");
  }
  // cliffs: a heavy line on the shared edge, drawn over both cells
  const cliffLayer = el("g", { class: "cliffs", "aria-hidden": "true" }, layer);
  for (const c of m.cliffs) {
    const cell = m.cells.get(key(c.q, c.r));
    const [cx, cy] = centre(c.q, c.r);
    const z = cell && opts.view3d ? cell.level : 0;
    // edge towards direction d lies between corners d-1 and d (corner k at 30+60k degrees)
    const a = cornerVec((c.direction + 5) % 6), b = cornerVec(c.direction);
    const p1 = project(cx + SIZE * a[0], cy + SIZE * a[1], z), p2 = project(cx + SIZE * b[0], cy + SIZE * b[1], z);
    el("line", { class: "cliff", x1: p1[0].toFixed(2), y1: p1[1].toFixed(2), x2: p2[0].toFixed(2), y2: p2[1].toFixed(2) }, cliffLayer);
  }
  // error, warning and selection outlines over the cliffs: a cliff line along a cell's edge hid the
  // red of an unreachable destination walled in by cliffs
  const outlineLayer = el("g", { class: "outlines", "aria-hidden": "true" }, layer);
  for (const [q, r, classes, face] of outlines) {
    el("polygon", { class: ["outline", ...classes].join(" "), points: face, "data-q": q, "data-r": r }, outlineLayer);
  }
  // routes on demand
  const routeLayer = el("g", { class: "routes", "aria-hidden": "true" }, layer);
  for (const route of opts.routes || []) {
    if (!route.path || route.path.length < 2) continue;
    const line = route.path.map(([q, r]) => {
      const cell = m.cells.get(key(q, r));
      const [x, y] = centre(q, r);
      return project(x, y, cell && opts.view3d ? cell.level : 0);
    });
    el("polyline", { class: "route", "data-seat": route.seat, points: pts(line),
      stroke: seatColour(colours.seats, layout, route.seat) }, routeLayer);
  }
  // start rings and flags over everything: in 3D a taller piece in front hid them
  const markerLayer = el("g", { class: "markers", "aria-hidden": "true" }, layer);
  // each corner's number just outside it: the seats' "start corner" lists name corners by number, and
  // a free corner had nothing on the board to say which number it was
  for (const [k, [q, r]] of cornerHexes(R, opts.cornerDirections).entries()) {
    const [cx, cy] = centre(q, r);
    const out = SIZE * 1.05 / Math.hypot(cx, cy);
    const [lx, ly] = project(cx + cx * out, cy + cy * out, 0);
    const t = el("text", { class: "corner-number", x: lx.toFixed(1), y: ly.toFixed(1) }, markerLayer);
    t.textContent = String(k);
  }
  for (const [k, tx, ty] of markers) {
    if (m.starts.has(k)) {
      el("circle", { class: "start", cx: tx.toFixed(2), cy: ty.toFixed(2), r: SIZE * 0.78 * (opts.view3d ? 0.8 : 1),
        stroke: seatColour(colours.seats, layout, m.starts.get(k)) }, markerLayer);
    }
    for (const [n, d] of (m.dests.get(k) || []).entries()) {
      // a flag in the seat's colour with the seat number, on the piece
      const col = seatColour(colours.seats, layout, d.seat);
      const fx = tx - 4 + n * 12, fy = ty - 28;
      el("line", { class: "flagpole", x1: fx, y1: fy, x2: fx, y2: fy + 24 }, markerLayer);
      el("polygon", { class: "flag", points: pts([[fx, fy], [fx + 17, fy + 6], [fx, fy + 12]]), fill: col }, markerLayer);
      const t = el("text", { class: "flagtext", x: (fx + 6).toFixed(1), y: (fy + 9.5).toFixed(1) }, markerLayer);
      t.textContent = String(d.seat);
    }
  }
  return m;
}

// Talking to the terragen server: JSON calls, downloads and long jobs.

function newTabId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// One id per browser tab: the server runs at most one long job for it at a time.
export const TAB = newTabId();
// what a request says when the server does not answer (the page takes it back once one does)
export const SERVER_SILENT = "the terragen server does not answer (was it stopped?)";

export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// A whole number typed into a field, kept as its digits: JavaScript numbers round anything above
// 2^53 (a seed of 9007199254740993 became ...992), so these go into the request's JSON text verbatim.
export class Digits {
  constructor(text) { this.text = BigInt(text).toString(); }  // "007" is no JSON number; "7" is
}

// The request body as JSON text, each Digits value written as its digits.
export function toJson(body) {
  const mark = `digits-${newTabId()}-`;  // a random marker no value of the body can hold by chance
  const digits = [];
  const text = JSON.stringify(body, (k, v) => (v instanceof Digits ? `${mark}${digits.push(v.text) - 1}` : v));
  return text.replace(new RegExp(`"${mark}(\\d+)"`, "g"), (m, i) => digits[Number(i)]);
}

// JSON text read without rounding whole numbers above 2^53: where the browser can (JSON.rawJSON,
// Chromium 114+, Firefox 135+) each stays its digits, written back exactly by JSON.stringify;
// where it cannot, the number is rounded and its digits are listed in ``lost``, so the page says so.
export function parseExact(text) {
  const lost = [];
  const raw = typeof JSON.rawJSON === "function";
  const value = JSON.parse(text, (k, v, context) => {
    if (typeof v !== "number" || Number.isSafeInteger(v) || !Number.isInteger(v)) return v;
    const source = context && context.source;
    if (raw && source && /^-?\d+$/.test(source)) return JSON.rawJSON(source);
    lost.push(source || `about ${v}`);  // without the source text only the rounded value is known
    return v;
  });
  return { value, lost };
}

export async function call(path, body, { exact = false } = {}) {
  const init = { method: body === undefined ? "GET" : "POST", headers: { "X-Terragen-Tab": TAB } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = toJson(body);
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    throw new ApiError(SERVER_SILENT, 0);
  }
  const isJson = (resp.headers.get("Content-Type") || "").startsWith("application/json");
  if (!resp.ok) {
    const data = isJson ? await resp.json() : { error: resp.statusText };
    throw new ApiError(data.error || `error ${resp.status}`, resp.status);
  }
  if (!isJson || resp.headers.get("Content-Disposition")) return resp.blob();
  return exact ? parseExact(await resp.text()) : resp.json();
}

export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function fileLink(jobId, name) {
  return `/api/jobs/${encodeURIComponent(jobId)}/files/${encodeURIComponent(name)}`;
}

// Runs one long job: start, poll for progress, resolve with the finished job (or reject).
export class JobRunner {
  constructor(onProgress) {
    this.onProgress = onProgress;
    this.current = null;
    window.addEventListener("pagehide", () => {
      if (this.current) navigator.sendBeacon(`/api/jobs/${this.current}/cancel`);
    });
  }

  get busy() { return this.current !== null; }

  async run(kind, body) {
    const job = await call(`/api/jobs/${kind}`, body);
    this.current = job.id;
    this.onProgress(job);
    try {
      let state = job;
      while (state.state === "running") {
        await new Promise((res) => setTimeout(res, 250));
        state = await call(`/api/jobs/${job.id}`);
        this.onProgress(state);
      }
      if (state.state === "done") return state;
      // cancelled by the user ("cancelled"), or by the server, which says why
      if (state.state === "cancelled") throw new ApiError(state.error || "cancelled", 499);
      throw new ApiError(state.error || "the job failed", 400);
    } finally {
      this.current = null;
      this.onProgress(null);
    }
  }

  async cancel() {
    if (this.current) await call(`/api/jobs/${this.current}/cancel`, {});
  }
}

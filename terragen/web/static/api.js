// Talking to the terragen server: JSON calls, downloads and long jobs.

function newTabId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// One id per browser tab: the server runs at most one long job for it at a time.
export const TAB = newTabId();

export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function call(path, body) {
  const init = { method: body === undefined ? "GET" : "POST", headers: { "X-Terragen-Tab": TAB } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    throw new ApiError("the terragen server does not answer (was it stopped?)", 0);
  }
  const isJson = (resp.headers.get("Content-Type") || "").startsWith("application/json");
  if (!resp.ok) {
    const data = isJson ? await resp.json() : { error: resp.statusText };
    throw new ApiError(data.error || `error ${resp.status}`, resp.status);
  }
  return isJson && !resp.headers.get("Content-Disposition") ? resp.json() : resp.blob();
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
      if (state.state === "cancelled") throw new ApiError("cancelled", 499);
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

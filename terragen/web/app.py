"""The Flask app of ``terragen serve``: the page, its assets and the JSON API.

Safety lives here, in front of every route: the Host header must name this
server on loopback (so a DNS-rebinding page cannot reach it), a browser's
Origin must be this server's, request bodies are size-limited and every POST
body must be JSON (which a foreign page cannot send without a CORS preflight
this server never grants). Bodies are decoded with the same guards as input
files (nesting, huge numbers, binary), and answers are ``{"error": ...}`` with a
status code, never a traceback. Routes only decode, call ``terragen.web.api``
or the job manager, and encode.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from importlib import resources
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from terragen.errors import TerragenError
from terragen.web import api
from terragen.web.jobs import Busy, JobManager

#: Largest request body, in bytes (a layout is a few kB; an upload travels as JSON text).
#: a request's largest body: room for a file of api.MAX_TEXT_CHARS characters even when every one
#: is sent escaped (6 bytes, \uXXXX) and the layout beside it
MAX_BODY = 8 * 1024 * 1024
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
_STATIC_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\.(html|js|css|svg)$")  # a 300-letter name raised OSError
_TAB = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: jobs may run this long beyond their own time limit before they are stopped
JOB_SLACK = 120.0
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")


def allowed_hosts(port: int | None) -> set[str]:
    """Host header values that name this server: loopback names, with the port when known.

    On port 80 browsers leave the default port out of Host and Origin, so the bare names count too.
    """
    names = set(LOOPBACK_NAMES)
    if not port:
        return names
    return {f"{n}:{port}" for n in names} | (names if port == 80 else set())


def error(message: str, status: int = 400) -> Response:
    return Response(json.dumps({"error": message}), status=status, mimetype="application/json")


def ok(data: Any) -> Response:
    return Response(json.dumps(data, allow_nan=False, ensure_ascii=False), mimetype="application/json")


def read_json_body() -> dict[str, Any]:
    """The request's JSON object, read with the same hostile-input guards as the CLI's input files."""
    from terragen.fileio import decode_text
    from terragen.safejson import load_json

    if request.mimetype != "application/json":
        raise api.ApiError("requests must send JSON (Content-Type: application/json)", 415)
    raw = request.get_data(cache=False)
    if len(raw) > MAX_BODY:
        raise api.ApiError(f"request body larger than {MAX_BODY // 1024} KiB", 413)
    data = load_json(decode_text(raw, "request body"), "request body")
    if not isinstance(data, dict):
        raise api.ApiError("request body must be a JSON object")
    return data


def create_app(port: int | None = None, hosts: Iterable[str] | None = None, jobs: JobManager | None = None) -> Flask:
    """The app for a server on ``port`` (None: any port, for tests); ``hosts`` overrides the allowed Host values."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.url_map.merge_slashes = False  # /api//info is no page: a JSON 404, not an HTML redirect
    allowed = set(hosts) if hosts is not None else allowed_hosts(port)
    origins = {f"http://{h}" for h in allowed}
    manager = jobs or JobManager()
    app.extensions["terragen_jobs"] = manager

    @app.before_request
    def guard() -> Response | None:
        host = request.headers.get("Host", "")
        if host not in allowed:
            return error(f"refused: Host {host[:60]!r} is not this local server", 403)
        origin = request.headers.get("Origin")
        if origin is not None and origin not in origins:
            return error(f"refused: requests from {origin[:60]!r} are not allowed", 403)
        if request.headers.get("Sec-Fetch-Site") == "cross-site":
            return error("refused: cross-site request", 403)
        if request.content_length is not None and request.content_length > MAX_BODY:
            return error(f"request body larger than {MAX_BODY // 1024} KiB", 413)
        if request.method == "OPTIONS":  # a CORS preflight, which this server never grants
            return not_allowed()
        return None

    def not_allowed() -> Response:
        """A 405 with the methods the address does take (HTTP asks a 405 to name them in Allow);
        OPTIONS is never among them here."""
        adapter = app.create_url_adapter(request)
        methods = sorted(m for m in (adapter.allowed_methods() if adapter is not None else []) if m != "OPTIONS")
        if not methods:  # no such address at all (an OPTIONS preflight for one): as any other method hears
            return error("no such page or API call", 404)
        resp = error("method not allowed here", 405)
        resp.headers["Allow"] = ", ".join(methods)
        return resp

    @app.after_request
    def headers(resp: Response) -> Response:
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.errorhandler(api.ApiError)
    def api_error(exc: api.ApiError) -> Response:
        return error(api.page_words(exc.message), exc.status)

    @app.errorhandler(TerragenError)
    def terragen_error(exc: TerragenError) -> Response:
        return error(api.page_words(exc.message), 400)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        messages = {404: "no such page or API call", 405: "method not allowed here",
                    413: f"request body larger than {MAX_BODY // 1024} KiB"}
        code = exc.code or 400
        if code == 405:
            return not_allowed()
        return error(messages.get(code, exc.name), code)

    @app.errorhandler(Exception)
    def internal(exc: Exception) -> Response:
        app.logger.exception("internal error")
        return error(f"internal error: {type(exc).__name__} (see the server's terminal)", 500)

    # -- the page ---------------------------------------------------------------------------
    @app.get("/")
    def index() -> Response:
        return static_file("index.html")

    @app.get("/static/<name>")
    def static_file(name: str) -> Response:
        if not _STATIC_NAME.match(name):
            return error("no such file", 404)
        res = resources.files("terragen.web").joinpath("static", name)
        if not res.is_file():
            return error("no such file", 404)
        suffix = name[name.rfind("."):]
        return Response(res.read_bytes(), mimetype=STATIC_TYPES[suffix].split(";")[0],
                        content_type=STATIC_TYPES[suffix])

    # -- synchronous calls ------------------------------------------------------------------
    @app.get("/api/info")
    def info() -> Response:
        return ok(api.info())

    @app.post("/api/empty")
    def empty() -> Response:
        return ok(api.empty_layout(read_json_body().get("radius")))

    @app.post("/api/upload")
    def upload() -> Response:
        body = read_json_body()
        return ok(api.parse_upload(body.get("text"), api.optional(body, "name", str, None)))

    @app.post("/api/check")
    def check() -> Response:
        body = read_json_body()
        return ok(api.check(body.get("layout"), puzzle=api.optional(body, "puzzle", bool, False)))

    @app.post("/api/export")
    def export() -> Response:
        body = read_json_body()
        text, media = api.export(body.get("layout"), body.get("format"))
        name = "board.json" if media == "application/json" else "board.txt"
        return download(text.encode("utf-8"), name, media)

    # -- jobs -------------------------------------------------------------------------------
    def tab_id() -> str:
        tab = request.headers.get("X-Terragen-Tab", "")
        if not _TAB.match(tab):
            raise api.ApiError("missing or malformed X-Terragen-Tab header (one id per browser tab)")
        return tab

    def start(kind: str, args: tuple, seconds: float) -> Response:
        try:
            job = manager.start(tab_id(), kind, args, seconds + JOB_SLACK)
        except Busy as exc:
            return error(str(exc), 409)
        return ok(job.to_json())

    @app.post("/api/jobs/generate")
    def job_generate() -> Response:
        options = api.check_generate(read_json_body().get("options", {}))
        return start("generate", (options,), float(options.get("time_limit", 60.0)))

    @app.post("/api/jobs/simulate")
    def job_simulate() -> Response:
        body = read_json_body()
        layout = api.layout_from_request(body.get("layout"))
        options = api.check_simulate(body.get("options", {}))
        api.check_simulate_on(layout, options)
        from terragen.terrain.formats_json import layout_to_data

        return start("simulate", (layout_to_data(layout), options), 600.0)

    @app.post("/api/jobs/build-sheet")
    def job_build_sheet() -> Response:
        body = read_json_body()
        text, _ = api.export(body.get("layout"), "json")
        # the sheet's title names the user's file (cut to a label's 80 characters, as an upload's name is)
        name = api.file_label(api.optional(body, "name", str, None), "board.json")
        return start("build-sheet", (text, api.check_paper(body.get("paper", "a4")), name,
                                     api.check_palette(body.get("palette", "colour"))), 60.0)

    @app.post("/api/jobs/kit")
    def job_kit() -> Response:
        body = read_json_body()
        game = body.get("game")
        return start("kit", (game, api.check_kit(game, body.get("options", {}))), 120.0)

    @app.get("/api/jobs/<job_id>")
    def job_status(job_id: str) -> Response:
        job = manager.get(job_id)
        return ok(job.to_json()) if job else error("no such job (finished long ago, or never started)", 404)

    @app.post("/api/jobs/<job_id>/cancel")
    def job_cancel(job_id: str) -> Response:
        job = manager.cancel(job_id)
        return ok(job.to_json()) if job else error("no such job", 404)

    @app.get("/api/jobs/<job_id>/files/<name>")
    def job_file(job_id: str, name: str) -> Response:
        job = manager.get(job_id)
        if job is None or job.result is None or name not in job.result.files:
            return error("no such file", 404)
        media, data = job.result.files[name]
        return download(data, name, media)

    return app


def download(data: bytes, name: str, media: str) -> Response:
    """A file to save; its name may come from the user's file (a build sheet's), so it goes as
    RFC 6266's UTF-8 ``filename*`` with a plain-ASCII ``filename`` beside it for old clients (a
    quote or an emoji in a header broke it)."""
    from urllib.parse import quote

    # '%' too: some clients percent-decode a plain filename ("a%20b" saved as "a b")
    plain = "".join(ch if " " <= ch < "\x7f" and ch not in '"\\%' else "_" for ch in name)
    resp = Response(data, mimetype=media)
    said = f'attachment; filename="{plain}"'
    resp.headers["Content-Disposition"] = said if plain == name else f"{said}; filename*=UTF-8''{quote(name, safe='')}"
    return resp

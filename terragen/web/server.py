"""Running the web app: a waitress server on loopback, its URL, and a clean stop.

``Server`` binds first (port 0 asks the system for a free port), so the URL is
known before anything is served; ``serve_forever`` returns on ``close()`` and
raises Ctrl-C's or SIGTERM's interrupt again once every running job is
cancelled and every socket closed, so ``terragen serve`` exits 130 or 143 like
every other command.
"""

from __future__ import annotations

import threading
from typing import Any

from terragen.errors import SpecError
from terragen.web.app import MAX_BODY, create_app
from terragen.web.jobs import JobManager

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: waitress's own body limit (32 MiB): beyond it waitress answers 413 in plain text, not the app
SERVER_MAX_BODY = 4 * MAX_BODY


class Server:
    """The app served by waitress on ``host:port``; use ``url`` once built."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, threads: int = 6, max_jobs: int = 2) -> None:
        from waitress import create_server

        if host not in LOOPBACK:
            raise SpecError(f"--host {host!r}: terragen serve listens on loopback only (127.0.0.1, localhost or ::1)")
        self.jobs = JobManager(max_running=max_jobs)
        self._thread: threading.Thread | None = None
        self._app_holder: dict[str, Any] = {}

        def app(environ: Any, start_response: Any) -> Any:  # created before the port is known
            return self._app_holder["app"](environ, start_response)

        try:
            # waitress refuses a body over its own limit in plain text: set above the app's, so the
            # app answers its JSON 413 for bodies up to 4 times its limit (waitress holds a body
            # whole before the app sees it, so its limit bounds what one request may make the
            # server hold; docs/web.md names the plain-text answer beyond it); a connection that sends
            # nothing is closed after 30 s, not waitress's 120 (100 such held the server that long)
            self.server = create_server(app, host=host, port=port, threads=threads,
                                        max_request_body_size=SERVER_MAX_BODY, channel_timeout=30,
                                        expose_tracebacks=False, clear_untrusted_proxy_headers=True, ident="terragen")
        except OSError as exc:
            raise SpecError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        self.port = int(self.server.effective_port)
        self._app_holder["app"] = create_app(self.port, jobs=self.jobs)
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}/"

    def serve_forever(self) -> None:
        """waitress's own ``run()`` swallows KeyboardInterrupt (and SIGTERM's Terminated, one of its
        kind), which hid how the server was stopped: its loop runs here instead, so the interrupt
        reaches the command after the clean stop."""
        srv = self.server
        try:
            srv.asyncore.loop(timeout=srv.adj.asyncore_loop_timeout, map=srv._map, use_poll=srv.adj.asyncore_use_poll)
        finally:
            self.close()

    def start_thread(self) -> threading.Thread:
        """Serve from a background thread (tests, scripts); stop with ``close()``."""
        self._thread = threading.Thread(target=self.server.run, name="terragen-serve", daemon=True)
        self._thread.start()
        return self._thread

    def close(self) -> None:
        """Cancel the jobs, let request threads finish, close every socket; the serving loop then ends."""
        from waitress import wasyncore

        self.jobs.shutdown()
        self.server.task_dispatcher.shutdown()
        try:
            wasyncore.close_all(self.server._map)
        except OSError:
            pass
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

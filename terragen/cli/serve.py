"""``terragen serve``: the local web page to build, check, balance and print a board."""

from __future__ import annotations

import click

from terragen.cli._common import Whole, say
from terragen.errors import SpecError


@click.command()
@click.option("--port", type=Whole(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="Loopback address to listen on: 127.0.0.1, localhost or ::1 (nothing else is allowed).")
@click.option("--no-browser", is_flag=True, help="Print the address but do not open a browser.")
@click.option("--jobs", "max_jobs", type=Whole(1, 16), default=2, show_default=True,
              help="Long jobs (generate, simulate, print) the server runs at once; one per browser tab.")
def serve(port: int, host: str, no_browser: bool, max_jobs: int) -> int:
    """Start the terragen web page on this computer and open it in the browser.

    Build a Terrain Game board by clicking (or start from a generated or
    uploaded one), see every rule problem on the cell it concerns as you
    edit, each seat's reachability, expected turns and race win chances,
    simulate full games, and download the layout, its build sheet and every
    game's print kit. Everything is served from the installed package and
    works offline. Stop it with Ctrl-C.

    -q prints only the address (which you need to open the page) and errors;
    a browser that cannot be opened is said on stderr all the same.

    \b
    Examples:
      terragen serve
      terragen serve --port 8765 --no-browser

    Needs the web extra: pip install 'terragen[web]'.

    Exit status: 2 bad options or the port is taken; 130 stopped by Ctrl-C,
    143 by SIGTERM, 129 by SIGHUP, 70 an internal error (as every command).
    """
    try:
        from terragen.web.server import Server
    except ModuleNotFoundError as exc:
        raise SpecError(f"terragen serve needs the web extra ({exc.name} is not installed): "
                        "pip install 'terragen[web]'") from None

    import logging

    # "Task queue depth is 4" on stderr, without terragen's prefix, whenever a few checks came at once:
    # a busy page on one's own machine is not news (waitress's other warnings still show)
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    server = Server(host, port, max_jobs=max_jobs)
    # the address is the data this command gives: printed even with -q
    click.echo(f"terragen serve: {server.url}  (Ctrl-C stops it)")
    if not no_browser and not open_browser(server.url):
        click.echo("terragen serve: could not open a browser; open the address above", err=True)
    try:
        server.serve_forever()  # raises Ctrl-C's or SIGTERM's interrupt once the jobs and sockets are closed
    finally:
        say("terragen serve: stopped")
    return 0


def open_browser(url: str) -> bool:
    """Whether a browser was started: ``webbrowser.open`` says False when it finds none, and raises
    only for some failures."""
    import webbrowser

    try:
        return bool(webbrowser.open(url))
    except webbrowser.Error:
        return False

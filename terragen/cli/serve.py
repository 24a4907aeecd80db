"""``terragen serve``: the local web page to build, check, balance and print a board."""

from __future__ import annotations

import click

from terragen.errors import SpecError


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="Loopback address to listen on: 127.0.0.1, localhost or ::1 (nothing else is allowed).")
@click.option("--no-browser", is_flag=True, help="Print the address but do not open a browser.")
@click.option("--jobs", "max_jobs", type=click.IntRange(1, 16), default=2, show_default=True,
              help="Long jobs (generate, simulate, print) the server runs at once; one per browser tab.")
def serve(port: int, host: str, no_browser: bool, max_jobs: int) -> int:
    """Start the terragen web page on this computer and open it in the browser.

    Build a Terrain Game board by clicking (or start from a generated or
    uploaded one), see every rule problem on the cell it concerns as you
    edit, each seat's reachability, expected turns and race win chances,
    simulate full games, and download the layout, its build sheet and every
    game's print kit. Everything is served from the installed package and
    works offline. Stop it with Ctrl-C.

    \b
    Examples:
      terragen serve
      terragen serve --port 8765 --no-browser

    Needs the web extra: pip install 'terragen[web]'.

    Exit status: 0 stopped, 2 bad options or the port is taken.
    """
    try:
        from terragen.web.server import Server
    except ModuleNotFoundError as exc:
        raise SpecError(f"terragen serve needs the web extra ({exc.name} is not installed): "
                        "pip install 'terragen[web]'") from None

    server = Server(host, port, max_jobs=max_jobs)
    click.echo(f"terragen serve: {server.url}  (Ctrl-C stops it)")
    if not no_browser:
        import webbrowser

        try:
            webbrowser.open(server.url)
        except webbrowser.Error:
            click.echo("terragen serve: could not open a browser; open the address above", err=True)
    try:
        server.serve_forever()  # returns on Ctrl-C (waitress handles the interrupt)
    except KeyboardInterrupt:
        pass
    click.echo("terragen serve: stopped")
    return 0

"""``terragen serve``: a local web page over the library (Flask app, job runner, static page).

The page edits a layout's JSON and asks the server for everything else; see
docs/web.md. Nothing here decides a game rule.
"""

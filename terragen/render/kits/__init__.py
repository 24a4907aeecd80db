"""Each game's print-and-play kit: its art (what a piece looks like) and its kit (which pages to print).

The drawing engine they share (model, back ends, imposition, marks, tiler, paper) is the parent
package, ``terragen.render``; a kit only arranges that engine's parts for one game.
"""

"""The Terrain Game: pieces, layouts, the move rules, analysis, generation and simulation."""

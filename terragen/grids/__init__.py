"""Grid geometry shared by all games: hexagons in axial coordinates and squares."""

"""The Terrain Game's art and print-and-play kit."""

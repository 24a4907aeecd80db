"""Drawing: SVG and PDF output. Renderers take game data and decide no rule."""

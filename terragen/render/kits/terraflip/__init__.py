"""TerraFlip's art and print-and-play kit."""

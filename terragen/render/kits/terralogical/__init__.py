"""Terralogical's art and print-and-play kit."""

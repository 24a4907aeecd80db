"""Terrace's art and print-and-play kit."""

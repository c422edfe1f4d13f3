"""Rendering: views → Markdown text. No disk I/O here."""

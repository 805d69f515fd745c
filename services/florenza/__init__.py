"""Florenza (Stefano Groppi, Placentia Games 2010): pure rules in ``rules/``, YAML content in ``content/``."""

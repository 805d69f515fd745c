"""Matches over a store: the generic runner (load -> decide -> append), playouts, export and archive."""

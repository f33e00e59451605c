"""Arcane Artificer: a roguelite where the gun is a program (Python face of the Rust core)."""

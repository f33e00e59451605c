"""Game flow: waves, the run, and (later) shop, relics, potions, meta, saves.

No pygame here: everything in `game` runs headless.
"""

"""The game's scenes, one module each (title, and later lab, arena, shop, summary, settings...).

Each scene is a `artificer.ui.scene.Scene`; a scene changes screens through
the `SceneStack` it is given in `on_enter`.
"""

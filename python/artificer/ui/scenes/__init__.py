"""The game's scenes, one module each (title, lab, training, arena, shop, shop_menu, menu, summary, settings).

Each scene is a `artificer.ui.scene.Scene`; a scene changes screens through
the `SceneStack` it is given in `on_enter`. A module may declare its scene
(`artificer.ui.scene_registry.declare`: its router name, its factory, its
line on the title's menu): the window imports every module of this package
once, by name, and registers what they declared, so a new scene is its module.
"""

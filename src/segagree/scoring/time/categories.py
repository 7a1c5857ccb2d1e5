"""What a unit's category is when units in time are scored (no imports: the command line's options read it)."""

#: ``label``: the unit's text with its endnote; ``endnote``: its boundary type; ``none``: no category.
CATEGORY_MODES = ("label", "endnote", "none")

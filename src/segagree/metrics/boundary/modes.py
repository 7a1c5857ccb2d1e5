"""S_f's search modes (no imports: the command line's options read them): ``optimal``, the exact minimum
cost alignment, and ``segsimflex``, the search of the R package segsimflex (Lai, Li & Zhang 2023)."""

#: the S_f search modes, the default first
MODES: tuple[str, ...] = ("optimal", "segsimflex")

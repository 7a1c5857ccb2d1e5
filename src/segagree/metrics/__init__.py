"""Segmentation similarity and agreement metrics: pure functions on boundary arrays and masses.

* S_f and S_f^B (Lai, Li & Zhang 2023): :func:`sf`, :func:`sf_speaker` (:mod:`.sf`); the R
  reference's restricted search in :mod:`.sf_segsimflex`.
* Fournier's boundary edit distance, S and B (:mod:`.boundary_edit`), Pk, WindowDiff and WinPR
  (:mod:`.windows`), the alignment-based A (:mod:`.alignment`), on masses, gap sets or
  per-token codes (:mod:`.masses`); additive statistics and pooling in :mod:`.stats`.
* Chance-corrected agreement: :mod:`.agreement` (simulated kappa), :mod:`.fleiss`.
* The measure contract (:mod:`.contract`: card, statistics, add, score) and the one registry of
  measures (:mod:`.registry`), whose cards ``segagree metrics`` prints.
"""

# `sf` is both a submodule and a function: importing the submodule (as `compare` always does)
# binds the package attribute `sf` to the module, so the S_f names are bound here, eagerly.
from segagree.metrics.sf import MODES, Operation, SfResult, SfStats, sf, sf_speaker

# public name -> module; imported on first use, so that importing one metric module (S_f for
# `compare`) does not load every other one (module __getattr__ below).
_LAZY = {
    "Addition": "segagree.metrics.boundary_edit",
    "AlignedPair": "segagree.metrics.alignment",
    "AlignmentResult": "segagree.metrics.alignment",
    "AlignmentStats": "segagree.metrics.stats",
    "BoundaryEditResult": "segagree.metrics.boundary_edit",
    "EditCounts": "segagree.metrics.stats",
    "K_RULES": "segagree.metrics.windows",
    "Match": "segagree.metrics.boundary_edit",
    "MetricCard": "segagree.metrics.contract",
    "Segmentation": "segagree.metrics.masses",
    "SimilarityResult": "segagree.metrics.boundary_edit",
    "SimilarityStats": "segagree.metrics.stats",
    "Substitution": "segagree.metrics.boundary_edit",
    "Transposition": "segagree.metrics.boundary_edit",
    "WinPRResult": "segagree.metrics.windows",
    "WinPRStats": "segagree.metrics.stats",
    "WindowResult": "segagree.metrics.windows",
    "WindowStats": "segagree.metrics.stats",
    "alignment_similarity": "segagree.metrics.alignment",
    "as_segmentation": "segagree.metrics.masses",
    "boundary_edit_distance": "segagree.metrics.boundary_edit",
    "boundary_similarity": "segagree.metrics.boundary_edit",
    "boundary_string": "segagree.metrics.masses",
    "codes_from_masses": "segagree.metrics.masses",
    "masses_from_codes": "segagree.metrics.masses",
    "masses_from_positions": "segagree.metrics.masses",
    "pk": "segagree.metrics.windows",
    "pooled": "segagree.metrics.stats",
    "positions_from_masses": "segagree.metrics.masses",
    "segmentation_similarity": "segagree.metrics.boundary_edit",
    "sets_from_codes": "segagree.metrics.masses",
    "sets_from_masses": "segagree.metrics.masses",
    "validate_masses": "segagree.metrics.masses",
    "window_size": "segagree.metrics.windows",
    "windowdiff": "segagree.metrics.windows",
    "winpr": "segagree.metrics.windows",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "K_RULES",
    "MODES",
    "Addition",
    "AlignedPair",
    "AlignmentResult",
    "AlignmentStats",
    "BoundaryEditResult",
    "EditCounts",
    "Match",
    "MetricCard",
    "Operation",
    "Segmentation",
    "SfResult",
    "SfStats",
    "SimilarityResult",
    "SimilarityStats",
    "Substitution",
    "Transposition",
    "WinPRResult",
    "WinPRStats",
    "WindowResult",
    "WindowStats",
    "alignment_similarity",
    "as_segmentation",
    "boundary_edit_distance",
    "boundary_similarity",
    "boundary_string",
    "codes_from_masses",
    "masses_from_codes",
    "masses_from_positions",
    "pk",
    "pooled",
    "positions_from_masses",
    "segmentation_similarity",
    "sets_from_codes",
    "sets_from_masses",
    "sf",
    "sf_speaker",
    "validate_masses",
    "window_size",
    "windowdiff",
    "winpr",
]

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
from importlib import import_module

from segagree.metrics.sf import MODES as MODES
from segagree.metrics.sf import Operation as Operation
from segagree.metrics.sf import SfResult as SfResult
from segagree.metrics.sf import SfStats as SfStats
from segagree.metrics.sf import sf as sf
from segagree.metrics.sf import sf_speaker as sf_speaker

_EAGER = [x.__name__ for x in (Operation, SfResult, SfStats, sf, sf_speaker)] + ["MODES"]

# module -> its public names (space-separated), imported on first use, so that importing one
# metric module (S_f for `compare`) does not load every other one (module __getattr__ below).
_MODULES = {
    "alignment": "AlignedPair AlignmentResult alignment_similarity",
    "boundary_edit": "Addition BoundaryEditResult Match SimilarityResult Substitution Transposition "
    "boundary_edit_distance boundary_similarity segmentation_similarity",
    "contract": "MetricCard",
    "masses": "Segmentation as_segmentation boundary_string codes_from_masses masses_from_codes "
    "masses_from_positions positions_from_masses sets_from_codes sets_from_masses validate_masses",
    "stats": "AlignmentStats EditCounts SimilarityStats WinPRStats WindowStats pooled",
    "windows": "K_RULES WinPRResult WindowResult pk window_size windowdiff winpr",
}
_LAZY = {name: f"{__name__}.{module}" for module, names in _MODULES.items() for name in names.split()}


def __getattr__(name: str) -> object:
    """A public name's value, its module imported on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value = getattr(import_module(_LAZY[name]), name)
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = sorted([*_EAGER, *_LAZY])

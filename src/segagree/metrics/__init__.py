"""Segmentation similarity and agreement metrics: pure functions on boundary arrays and masses.

* S_f and S_f^B (Lai, Li & Zhang 2023): :func:`sf`, :func:`sf_speaker` (:mod:`.sf`); the R
  reference's restricted search in :mod:`.sf_segsimflex`.
* Fournier's boundary edit distance, S and B (:mod:`.boundary_edit`), Pk, WindowDiff and WinPR
  (:mod:`.windows`), the alignment-based A (:mod:`.alignment`), on masses, gap sets or
  per-token codes (:mod:`.masses`); additive statistics and pooling in :mod:`.stats`.
* Chance-corrected agreement: :mod:`.agreement` (simulated kappa), :mod:`.fleiss`.
* Metric cards (definition, parameters, citation, library): :data:`METRIC_CARDS`.
"""

from segagree.metrics.alignment import AlignedPair, AlignmentResult, alignment_similarity
from segagree.metrics.boundary_edit import (
    Addition,
    BoundaryEditResult,
    Match,
    SimilarityResult,
    Substitution,
    Transposition,
    boundary_edit_distance,
    boundary_similarity,
    segmentation_similarity,
)
from segagree.metrics.cards import METRIC_CARDS, MetricCard, add_card
from segagree.metrics.masses import (
    Segmentation,
    as_segmentation,
    boundary_string,
    codes_from_masses,
    masses_from_codes,
    masses_from_positions,
    positions_from_masses,
    sets_from_codes,
    sets_from_masses,
    validate_masses,
)
from segagree.metrics.sf import MODES, Operation, SfResult, SfStats, sf, sf_speaker
from segagree.metrics.stats import (
    AlignmentStats,
    EditCounts,
    SimilarityStats,
    WindowStats,
    WinPRStats,
    pooled,
)
from segagree.metrics.windows import K_RULES, WindowResult, WinPRResult, pk, window_size, windowdiff, winpr

__all__ = [
    "K_RULES",
    "METRIC_CARDS",
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
    "add_card",
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

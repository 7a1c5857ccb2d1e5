"""Window metrics: Pk, WindowDiff and WinPR, in O(N) with cumulative sums.

Conventions (shared with segeval 2.0.11 and NLTK 3.10.4): a text of N units has N - 1 gaps;
a window of size k spans units i and i + k, i.e. the k gaps ``i .. i + k - 1``, and there are
N - k windows. A gap "has a boundary" when it holds any boundary type (multi-type inputs are
reduced to boundary presence).

The window size k, when not given, comes from the **reference** (first argument) by a named
rule, recorded in the result and its signature:

* ``"segeval"`` (default): segeval 2.0.11's ``compute_window_size``: ``int(round(mean
  reference mass / 2))`` where the mean is a ``Decimal`` and Python's ``round`` of a ``Decimal``
  rounds half to even (mean 5 -> 2.5 -> 2, mean 7 -> 3.5 -> 4); a result of 1 or less becomes 2.
  With it the default Pk and WindowDiff equal segeval's ``pk(hyp, ref)`` and
  ``window_diff(hyp, ref)`` (tests/metrics/test_metrics_reference_pkgs.py).
* ``"nltk"``: NLTK 3.10.4 ``pk``'s ``int(round(len(ref) / (max(ref.count("1"), 1) * 2.0)))``
  on the gap string, i.e. ``round((N - 1) / (2 * max(boundaries, 1)))`` with float ``round``,
  which also rounds half to even (the halves are exact in binary); raised to 1 when it is 0
  (NLTK would use k = 0 when every gap is a boundary). NLTK's ``windowdiff`` has no default k.
* ``"half_mean"``: ``floor(mean reference mass / 2)``, at least 1 (segagree's default before it
  followed segeval). This rule reproduces Fournier & Inkpen (2012)'s 1 - WD values (k = 1 and 3
  in Figure 7), which segeval's own rule (k = 2 and 4) does not.

A default k larger than N - 1 is lowered to N - 1 (``clamped`` in the result); a one-unit text
has no window and scores 0.0 (as segeval's Pk does). An explicit k must lie in 1 .. N - 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.boundary.masses import Format, Segmentation, as_pair, as_segmentation
from segagree.metrics.boundary.stats import WindowStats, WinPRStats, signature
from segagree.metrics.contract import Card, TokenPair
from segagree.metrics.token_measure import BoundaryMeasure

K_RULES: tuple[str, ...] = ("segeval", "nltk", "half_mean")
#: The rule used when neither k nor k_rule is given: the reference implementation's.
DEFAULT_K_RULE = "segeval"


# What the window measures share.
_WINDOW: dict[str, Any] = {
    "parameters": {"k": "round-half-even(mean reference mass / 2), at least 2 (segeval)", "k_rule": "segeval"},
    "group": "boundary",
    "reference": "NLTK 3.10.4, segeval 2.0.11",
}

PK_CARD = Card.from_text(
    """
    title: Pk
    definition: share of the N-k windows where exactly one segmentation has a boundary
    citation: Beeferman, Berger & Lafferty (1999), Statistical Models for Text Segmentation, Machine
        Learning 34
    notes: default k is segeval's rule (round half even of mean reference mass / 2, at least 2), so the
        value equals segeval's with its default window; k_rule 'nltk' is NLTK pk's default, 'half_mean' the
        floor (Fournier & Inkpen 2012, Fig. 7); a rule's k above N - 1 is lowered to N - 1 (segeval has no window)
    better: lower
    """,
    **_WINDOW,
    name="pk",
)
WINDOWDIFF_CARD = Card.from_text(
    """
    title: WindowDiff
    definition: share of the N-k windows whose boundary counts differ
    citation: Pevzner & Hearst (2002), A Critique and Improvement of an Evaluation Metric for Text
        Segmentation, Computational Linguistics 28
    parameters:
        lamprier = False
    notes: default k is segeval's rule (round half even of mean reference mass / 2, at least 2), so the
        value equals segeval's with its default window; k_rule 'nltk' is NLTK pk's default, 'half_mean' the
        floor (Fournier & Inkpen 2012, Fig. 7); a rule's k above N - 1 is lowered to N - 1 (segeval has no window)
    better: lower
    """,
    **_WINDOW,
    name="windowdiff",
)
WINPR_CARD = Card.from_text(
    """
    title: WinPR
    definition: window-based TP/TN/FP/FN over k+1-gap windows with k phantom gaps of padding; precision,
        recall, F1
    citation: Scaiano & Inkpen (2012), Getting More from Segmentation Evaluation, NAACL-HLT
    reference: the paper's worked example (rows a, b, d, e)
    notes: value is F1; row c of the paper's example cannot be reproduced by any hypothesis (see
        winpr())
    """,
    **_WINDOW,
    name="winpr",
)


def window_size(ref: Any, k_rule: str = DEFAULT_K_RULE, *, fmt: Format | None = None) -> int:
    """The default window size of a reference segmentation under a named rule.

    See the module docstring for the rules. The result is not clamped to the text length.
    """
    return _rule_k(as_segmentation(ref, fmt, "ref"), k_rule)


def _rule_k(seg: Segmentation, k_rule: str) -> int:
    n = seg.n_units
    n_segments = int(np.count_nonzero(seg.presence())) + 1
    if k_rule == "half_mean":
        return max(1, n // (2 * n_segments))
    if k_rule == "segeval":
        k = round(Fraction(n, 2 * n_segments))  # Fraction rounds half to even, like Decimal
        return k if k > 1 else 2
    if k_rule == "nltk":
        return max(1, round(Fraction(n - 1, 2 * max(n_segments - 1, 1))))
    raise UsageError(f"unknown k_rule {k_rule!r}; expected one of {list(K_RULES)}")


def _resolve_k(seg: Segmentation, k: Any, k_rule: str) -> tuple[int, str, bool]:
    """(k, rule label, clamped) for a reference segmentation."""
    if k is None:
        kk = _rule_k(seg, k_rule)
        if kk > seg.n_gaps:
            return max(1, seg.n_gaps), k_rule, True
        return kk, k_rule, False
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise UsageError(f"k = {k!r} must be an int window size")
    if k < 1:
        raise UsageError(f"k = {k} must be at least 1")
    if k > seg.n_gaps:
        raise UsageError(
            f"k = {k} is larger than the text allows: N = {seg.n_units} units has "
            f"{seg.n_gaps} gaps, so k must be at most {seg.n_gaps}"
        )
    return int(k), "given", False


def _window_counts(presence: np.ndarray, k: int) -> np.ndarray:
    """Boundary counts of every window of k consecutive gaps."""
    c = np.empty(presence.size + 1, dtype=np.int32)
    c[0] = 0
    np.cumsum(presence, dtype=np.int32, out=c[1:])
    return c[k:] - c[:-k]


@dataclass(frozen=True)
class WindowResult:
    """Pk or WindowDiff of one pair.

    Attributes:
        value: errors / windows (0 = identical); 0.0 when there is no window.
        k: the window size used.
        k_rule: ``"given"`` or the rule that chose k.
        clamped: the rule's k exceeded N - 1 and was lowered to N - 1.
        errors: windows where the segmentations disagree.
        windows: the denominator (N - k; N + k + 1 for the Lamprier et al. fix).
        stats: additive counts for pooling.
        signature: e.g. ``pk|k:3|rule:segeval|v:0.1.0``.
    """

    value: float
    k: int
    k_rule: str
    clamped: bool
    errors: int
    windows: int
    stats: WindowStats
    signature: str


def pk(
    ref: Any,
    hyp: Any,
    k: int | None = None,
    *,
    k_rule: str = DEFAULT_K_RULE,
    fmt: Format | None = None,
) -> WindowResult:
    """Pk (Beeferman, Berger & Lafferty 1999): the share of windows where exactly one side
    has a boundary.

    For each of the N - k windows (units i and i + k), the window is an error when one
    segmentation has at least one boundary among its k gaps and the other has none. Equal to
    NLTK ``pk(ref_str, hyp_str, k)`` and segeval ``pk(hyp, ref, window_size=k)`` for the same
    k. Runs in O(N).

    Args:
        ref: the reference (sets the default k).
        hyp: the hypothesis.
        k: window size; None chooses it from ``ref`` by ``k_rule``.
        k_rule: ``"segeval"`` (default, segeval's rounded mean mass / 2), ``"nltk"`` or
            ``"half_mean"`` (floor(mean mass / 2)).
        fmt: ``"masses"``, ``"sets"`` or ``"codes"``; None guesses masses or sets.
    """
    sr, sh = as_pair(ref, hyp, fmt, ("ref", "hyp"))
    kk, rule, clamped = _resolve_k(sr, k, k_rule)
    windows = sr.n_units - kk
    if windows <= 0:
        errors, windows = 0, 0
    else:
        cr = _window_counts(sr.presence(), kk)
        ch = _window_counts(sh.presence(), kk)
        errors = int(np.count_nonzero((cr > 0) != (ch > 0)))
    stats = WindowStats(PK_CARD.name, errors, windows)
    return WindowResult(
        stats.value,
        kk,
        rule,
        clamped,
        errors,
        windows,
        stats,
        signature(PK_CARD.name, k=kk, rule=rule),
    )


def windowdiff(
    ref: Any,
    hyp: Any,
    k: int | None = None,
    lamprier: bool = False,
    *,
    k_rule: str = DEFAULT_K_RULE,
    fmt: Format | None = None,
) -> WindowResult:
    """WindowDiff (Pevzner & Hearst 2002): the share of windows whose boundary counts differ.

    For each of the N - k windows (k gaps each) the window is an error when the two
    segmentations have different numbers of boundaries in it; WD = errors / (N - k). Equal to
    NLTK ``windowdiff(ref_str, hyp_str, k)`` and segeval ``window_diff(hyp, ref,
    window_size=k)``. Runs in O(N).

    ``lamprier=True`` is segeval's ``lamprier_et_al_2007_fix`` (Lamprier et al. 2007): k
    phantom units are added at both ends (their edge with the text counts as a boundary in both
    segmentations, so it never causes an error), giving N + k windows, and the denominator is
    segeval's N + k + 1.

    Args: as :func:`pk`, plus ``lamprier``.
    """
    sr, sh = as_pair(ref, hyp, fmt, ("ref", "hyp"))
    kk, rule, clamped = _resolve_k(sr, k, k_rule)
    pr, ph = sr.presence(), sh.presence()
    if lamprier:
        pad = np.zeros(kk - 1, dtype=bool)
        edge = np.ones(1, dtype=bool)
        pr = np.concatenate((pad, edge, pr, edge, pad))
        ph = np.concatenate((pad, edge, ph, edge, pad))
        denominator = sr.n_units + kk + 1
    else:
        denominator = sr.n_units - kk
    if pr.size < kk or denominator <= 0:
        errors, denominator = 0, max(denominator, 0)
    else:
        errors = int(np.count_nonzero(_window_counts(pr, kk) != _window_counts(ph, kk)))
    stats = WindowStats(WINDOWDIFF_CARD.name + ("_lamprier" if lamprier else ""), errors, denominator)
    sig = signature(WINDOWDIFF_CARD.name, k=kk, rule=rule, lamprier=lamprier)
    return WindowResult(stats.value, kk, rule, clamped, errors, denominator, stats, sig)


@dataclass(frozen=True)
class WinPRResult:
    """WinPR of one pair (Scaiano & Inkpen 2012).

    Attributes:
        tp, tn, fp, fn: window confusion counts.
        precision, recall, f1: from the counts (see
            :class:`~segagree.metrics.boundary.stats.WinPRStats` for empty denominators).
        k, k_rule, clamped: the window size and how it was chosen.
        stats: additive counts for pooling.
        signature: e.g. ``winpr|k:3|rule:given|v:0.1.0``.
    """

    tp: int
    tn: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float
    k: int
    k_rule: str
    clamped: bool
    stats: WinPRStats
    signature: str

    @property
    def value(self) -> float:
        """F1."""
        return self.f1


def winpr(
    ref: Any,
    hyp: Any,
    k: int | None = None,
    *,
    k_rule: str = DEFAULT_K_RULE,
    fmt: Format | None = None,
) -> WinPRResult:
    """WinPR (Scaiano & Inkpen 2012, "Getting more from segmentation evaluation", NAACL).

    Windows cover **k + 1** consecutive gaps (the paper's R_{i,i+k}). The gap strings are
    padded with k boundary-free phantom gaps at both ends and a window is taken at every
    offset, so every real gap lies in exactly k + 1 windows (N - 1 + k windows). With R and C
    the reference and hypothesis boundary counts in a window:

    * TP = sum min(R, C), FP = sum max(0, C - R), FN = sum max(0, R - C)
    * TN = sum ((k + 1) - max(R, C)) - k (k + 1) (the phantom gaps' share removed)

    so TP + TN + FP + FN = (k + 1)(N - 1) for every hypothesis. This reproduces rows a, b, d
    and e of the paper's worked example (segments of 6, k = 3). Row c (3/40/1/1) cannot be
    reproduced by any hypothesis: it sums to 45 while every hypothesis of that text gives 44;
    a one-unit near miss such as [7, 5] gives 3/39/1/1, most likely the intended row. No
    reference implementation exists; one public NLTK-style version does not pad and uses a
    different TN, so its counts differ.

    Args: as :func:`pk` (k defaults to the ``k_rule`` of the reference).
    """
    sr, sh = as_pair(ref, hyp, fmt, ("ref", "hyp"))
    kk, rule, clamped = _resolve_k(sr, k, k_rule)
    pad = np.zeros(kk, dtype=bool)
    pr = np.concatenate((pad, sr.presence(), pad))
    ph = np.concatenate((pad, sh.presence(), pad))
    r = _window_counts(pr, kk + 1)
    c = _window_counts(ph, kk + 1)
    tp = int(np.minimum(r, c).sum())
    fp = int(np.maximum(0, c - r).sum())
    fn = int(np.maximum(0, r - c).sum())
    tn = int(((kk + 1) - np.maximum(r, c)).sum()) - kk * (kk + 1)
    stats = WinPRStats(WINPR_CARD.name, tp, tn, fp, fn)
    return WinPRResult(
        tp,
        tn,
        fp,
        fn,
        stats.precision,
        stats.recall,
        stats.f1,
        kk,
        rule,
        clamped,
        stats,
        signature(WINPR_CARD.name, k=kk, rule=rule),
    )


# --- measures (the contract: segagree.metrics.contract) ----------------------------------------


class _WindowMeasure(BoundaryMeasure):
    """A window measure; each item reports the window size it used (``params.k``)."""

    options: ClassVar[tuple[str, ...]] = ("k", "k_rule")

    def chosen(self, result: Any) -> dict[str, Any]:
        return {"k": int(result.k)}


class PkMeasure(_WindowMeasure):
    card = PK_CARD

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> WindowResult:
        return pk(a, b, fmt=fmt, **options)


class WindowDiffMeasure(_WindowMeasure):
    card = WINDOWDIFF_CARD
    options = ("k", "k_rule", "lamprier")

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> WindowResult:
        return windowdiff(a, b, fmt=fmt, **options)


class WinPRMeasure(_WindowMeasure):
    card = WINPR_CARD

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> WinPRResult:
        return winpr(a, b, fmt=fmt, **options)


MEASURES = (PkMeasure(), WindowDiffMeasure(), WinPRMeasure())

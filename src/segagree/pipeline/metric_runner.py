"""Running the metrics other than S_f on an AnnotationPair, per speaker and pooled.

``RUNNERS`` maps a metric name (as in ``compare --metric`` and ``segagree metrics``) to a
function ``(pair, options) -> {"value": pooled, "per_speaker": {...}, "params": {...}}``.
Pooled values come from summed statistics (:func:`segagree.metrics.stats.pooled`), never from
averaged per-speaker scores. Boundary metrics read each speaker's code array of the compared
layer (``fmt="codes"``: the boundary after the stream's last token is the text's end, not a
gap, as in segeval's masses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.alignment import alignment_similarity
from segagree.metrics.boundary_edit import boundary_edit_distance, boundary_similarity, segmentation_similarity
from segagree.metrics.ghd import ghd
from segagree.metrics.sf import SF_NAMES
from segagree.metrics.stats import pooled
from segagree.metrics.windows import pk, windowdiff, winpr
from segagree.pipeline.pairing import AnnotationPair

Runner = Callable[[AnnotationPair, Mapping[str, Any]], dict[str, Any]]
# (pair, options) -> a function of two code arrays (or, with fmt="sets", two gap-set lists)
# returning a metric result with `.stats`.
ComputeFactory = Callable[[AnnotationPair, Mapping[str, Any]], Callable[..., Any]]

RUNNERS: dict[str, Runner] = {}

# Names that `compare` computes itself (the S_f engine) and accepts in --metric lists.


def per_speaker_runner(factory: ComputeFactory, value_of: Callable[[Any], float]) -> Runner:
    """A runner applying a metric per speaker and pooling its additive statistics.

    A speaker the metric cannot score (a window metric on a one-token stream) gets ``None``
    with the reason in ``skipped``; the pooled value sums the other speakers' statistics.
    """

    def run(pair: AnnotationPair, options: Mapping[str, Any]) -> dict[str, Any]:
        compute = factory(pair, options)
        per: dict[str, Any] = {}
        results = []
        skipped: dict[str, str] = {}
        ks: dict[str, int] = {}
        for s in pair.speakers:
            try:
                if pair.extra_layers:  # several layers at once: segeval's multi-type sets
                    res = compute(*pair.gap_sets(s), fmt="sets")
                else:
                    res = compute(pair.arrays_a[s], pair.arrays_b[s])
            except SegagreeError as err:
                per[s], skipped[s] = None, err.message
                continue
            per[s] = value_of(res)
            results.append(res)
            if getattr(res, "k", None) is not None:
                ks[s] = int(res.k)
        out: dict[str, Any] = {"value": value_of(pooled(results)) if results else None, "per_speaker": per}
        if results:
            out["signature"] = getattr(results[0], "signature", "")
        if ks:
            out["params"] = {"k": ks}
        if skipped:
            out["skipped"] = skipped
        return out

    return run


def _codes(fn: Callable[..., Any], *accepted: str, **fixed: Any) -> ComputeFactory:
    """Factory for ``fn(a, b, fmt="codes", **fixed, **options it accepts)``."""

    def factory(pair: AnnotationPair, options: Mapping[str, Any]) -> Callable[..., Any]:
        chosen = {k: v for k, v in options.items() if k in accepted}
        return lambda a, b, fmt="codes": fn(a, b, fmt=fmt, **fixed, **chosen)

    return factory


def _scheme_b(pair: AnnotationPair, options: Mapping[str, Any]) -> Callable[..., Any]:
    n_t = options.get("n_t", 2)

    def compute(a: Any, b: Any, fmt: str = "codes") -> Any:
        if fmt != "codes":
            raise SegagreeError("b_scheme compares one layer (its scheme's types), not several")
        return boundary_similarity(a, b, n_t, scheme=pair.scheme, fmt="codes")

    return compute


def _value(result: Any) -> float:
    return float(result.value)


RUNNERS.update(
    s=per_speaker_runner(_codes(segmentation_similarity, "n_t"), _value),
    b=per_speaker_runner(_codes(boundary_similarity, "n_t"), _value),
    b_scheme=per_speaker_runner(_scheme_b, _value),
    bed=per_speaker_runner(_codes(boundary_edit_distance, "n_t"), _value),
    pk=per_speaker_runner(_codes(pk, "k", "k_rule"), _value),
    windowdiff=per_speaker_runner(_codes(windowdiff, "k", "k_rule", "lamprier"), _value),
    winpr=per_speaker_runner(_codes(winpr, "k", "k_rule"), lambda r: float(r.f1)),
    a=per_speaker_runner(_codes(alignment_similarity), _value),
    ghd=per_speaker_runner(_codes(ghd, "ins_cost", "del_cost", "shift_cost_coeff"), _value),
)


def _register_subtitle_metrics() -> dict[str, tuple[str, ...]]:
    """Subtitle metrics (SubER's, EvalSubtitle's, reading speed) and their cards."""
    from segagree.metrics.cards import METRIC_CARDS, MetricCard, add_card
    from segagree.pipeline import subtitles

    for measure in subtitles.MEASURES.values():  # bridge: the contract's cards shown by `segagree metrics`
        c = measure.card
        if c.name not in METRIC_CARDS:
            add_card(
                MetricCard(
                    c.name,
                    c.title,
                    c.definition,
                    c.parameters,
                    c.citation,
                    library=c.library,
                    higher_is_better=c.higher_is_better,
                    reference=c.reference,
                )
            )
    return subtitles.register(RUNNERS)


# Named groups of metrics: `all` is every boundary metric, `subtitles` every subtitle metric.
GROUPS: dict[str, tuple[str, ...]] = {"all": (*SF_NAMES, *RUNNERS)}
GROUPS.update(_register_subtitle_metrics())


def known_metrics() -> list[str]:
    """Every metric name `compare --metric` accepts."""
    return [*SF_NAMES, *RUNNERS]


def resolve_metric_names(spec: str | Sequence[str]) -> list[str]:
    """Expand ``all`` and comma lists; raise UsageError naming an unknown metric."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name in GROUPS:
            out.extend(GROUPS[name])
            continue
        if name not in known_metrics():
            groups = ", ".join(f"'{g}'" for g in GROUPS)
            raise UsageError(f"unknown metric {raw!r}; known: {', '.join(known_metrics())} (or {groups})")
        out.append(name)
    return list(dict.fromkeys(out))


def run_metrics(pair: AnnotationPair, names: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Every requested metric except S_f (which the caller computes) on ``pair``."""
    return {name: RUNNERS[name](pair, options) for name in names if name not in SF_NAMES}

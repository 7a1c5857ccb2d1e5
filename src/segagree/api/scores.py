"""Scores of one text: :func:`compare` (``segagree compare``) and :func:`agree` (``segagree agree``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.api.common import (
    DocumentLike,
    PathLike,
    annotator_label,
    as_document,
    check_seed,
    pairing,
)
from segagree.errors import UsageError
from segagree.metrics.boundary.sf import check_mode
from segagree.metrics.chance.models import DEFAULT_CHANCE, DEFAULT_SIMS
from segagree.model import BoundaryScheme, load_scheme

if TYPE_CHECKING:
    import pandas as pd

    from segagree.metrics.contract import Card as MetricCard


class AgreementResult(dict):
    """The result of :func:`agree`: a JSON-ready dict (the ``agree --json`` contract).

    Keys: ``annotators``, ``pairs`` (one per pair of annotators: ``a``, ``b``, ``speakers``,
    ``pooled`` with ``sf``, ``sf_b``, ``kappa_sf``, ``kappa_sf_b``), ``multi`` (Fleiss-style
    multi-pi, multi-kappa and bias for three or more annotators), ``signature`` per pair.
    """

    @property
    def annotators(self) -> list[str]:
        return self["annotators"]

    @property
    def pairs(self) -> list[dict[str, Any]]:
        return self["pairs"]

    @property
    def kappa(self) -> float | None:
        """kappa(S_f) pooled over speakers, of the first pair of annotators."""
        from segagree.metrics.chance.kappa import KAPPA_NAMES

        est = self["pairs"][0]["pooled"].get(KAPPA_NAMES[0]) if self.get("pairs") else None
        return None if not est else est.get("kappa")

    @property
    def multi(self) -> dict[str, Any] | None:
        return self.get("multi")

    def to_frame(self) -> pd.DataFrame:
        """A pandas DataFrame: a row per pair of annotators and speaker, with each pair's pooled row
        ``ALL`` (S_f, S_f^B, their kappas, E[S] and the Monte Carlo errors); see :mod:`segagree.api.frames`."""
        from segagree.api.frames import agreement_frame

        return agreement_frame(self)

    def __repr__(self) -> str:
        from segagree.api.frames import names, short

        pairs = self.get("pairs") or []
        first = f", kappa_sf={short(self.kappa)}" if pairs else ""
        return f"AgreementResult(annotators={names(self.get('annotators') or [])}, pairs={len(pairs)}{first})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def agree(
    *annotations: DocumentLike | Sequence[DocumentLike],
    names: Sequence[str] | None = None,
    sims: int = DEFAULT_SIMS,
    seed: int = 12345,
    chance: str = DEFAULT_CHANCE,
    exact: bool = False,
    scheme: BoundaryScheme | str | None = None,
    mode: str = "optimal",
    transpositions: bool = True,
    layer: str | None = None,
    align: bool = False,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    jobs: int = 1,
    threads: int | None = None,
    ci_over: str = "texts",
    n_boot: int = 1000,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    mc_tolerance: float | None = None,
    common_speakers: bool = False,
) -> AgreementResult:
    """Chance-corrected agreement of two or more annotations of one text.

    For every pair: S_f and S_f^B, and kappa = (S - E[S]) / (1 - E[S]) where E[S] is the
    expected similarity of chance annotations drawn from the annotators' boundary-type
    distributions (Lai, Li & Zhang 2023, section 5; ``sims`` draws per speaker, seeded), or its
    exact value (``exact=True``, without transpositions). For three or more annotators also
    Fleiss-style multi-pi, multi-kappa and bias (Artstein & Poesio 2008).

    ``agree(a, b, c)`` as ``compare(a, b)``; the former ``agree([a, b, c])`` (one list) still works,
    with a DeprecationWarning.

    Args:
        annotations: paths or Documents (two or more, the same text).
        names: annotator labels (default: the file names).
        sims: simulated chance pairs per speaker (K).
        seed: seed of the simulation and the bootstrap.
        chance: chance model: cohen, scott, bennett, bennett_modified or segsimflex.
        exact: exact chance expectation of S_f (needs ``transpositions=False``).
        jobs: worker processes (the numbers do not depend on it).
        threads: threads scoring the simulations in this process (or in each worker with
            ``jobs`` > 1); default: every CPU this process may use with ``jobs=1``, else 1.
            The numbers do not depend on it.
        ci_over: bootstrap intervals over ``texts`` or ``speakers``.
        mc_tolerance: stop simulating before ``sims`` once both pooled kappas' Monte Carlo
            standard errors are at most this (each pair reports ``n_simulations_used`` and
            ``stopped_early``).
        other arguments: as in :func:`compare`.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        MismatchError: the annotations share no speaker or their transcripts differ beyond
            ``max_mismatch`` (also a ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> result = segagree.agree("garden.ann1.txt", "garden.ann2.txt", sims=200, seed=1)
            >>> result
            AgreementResult(annotators=['garden.ann1.txt', 'garden.ann2.txt'], pairs=1, kappa_sf=0.8141)
            >>> round(result.kappa, 4)
            0.8141
    """
    from segagree.metrics.chance.sf_kappa import CHANCE_MODELS
    from segagree.scoring.tokens.agreement import agree_documents

    items = _annotations(annotations)
    check_mode(mode)
    if chance not in CHANCE_MODELS:
        raise UsageError(f"chance must be one of {', '.join(CHANCE_MODELS)}, not {chance!r}")
    sch = load_scheme(scheme)
    paired = pairing(layer, sch, align, max_mismatch, normalise_speakers, common_speakers, speaker_map)
    if sims < 1 or jobs < 1 or n_boot < 1 or (threads is not None and threads < 1):
        raise UsageError("sims, jobs, threads and n_boot must be at least 1")
    check_seed(seed)
    if threads is None:
        from segagree.cpus import usable_cpus

        threads = usable_cpus() if jobs == 1 else 1
    if exact and (mc_tolerance is not None or progress is not None):
        given = "mc_tolerance" if mc_tolerance is not None else "progress"
        raise UsageError(f"{given} follows the simulations; with exact=True nothing is simulated")
    docs = [as_document(x, format, sch, read_options or {}) for x in items]
    if names is None:
        names = [annotator_label(x, i) for i, x in enumerate(items)]
    result = agree_documents(
        docs,
        names=names,
        mode=mode,
        transpositions=transpositions,
        chance=chance,
        chance_method="exact" if exact else "simulation",
        sims=sims,
        seed=seed,
        jobs=jobs,
        threads=threads,
        ci_over=ci_over,
        n_boot=n_boot,
        progress=progress,
        mc_tolerance=mc_tolerance,
        **paired,
    )
    return AgreementResult(result)


def _annotations(given: tuple[Any, ...]) -> tuple[DocumentLike, ...]:
    """agree's annotations: ``agree(a, b, ...)``, or the former ``agree([a, b, ...])`` with a warning."""
    if len(given) == 1 and isinstance(given[0], list | tuple):
        import warnings

        warnings.warn(
            "agree([a, b, ...]) is deprecated, use agree(a, b, ...) (as compare(a, b))",
            DeprecationWarning,
            stacklevel=3,
        )
        given = tuple(given[0])
    if len(given) < 2:
        raise UsageError(f"agree needs two or more annotations of the same text, got {len(given)}")
    return given


def metric_cards() -> dict[str, MetricCard]:
    """Every metric's card (definition, parameters and defaults, citation, implementation), from the registry.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> card = segagree.metric_cards()["pk"]
            >>> card.range, card.better
            ('[0, 1]', 'lower')
    """
    from segagree.scoring.metric_runner import metric_cards as cards

    return cards()


def agree_dataset(path: PathLike, *, n_boot: int = 1000, seed: int = 12345) -> dict[str, Any]:
    """S- and B-based multi-pi, multi-kappa and bias of a segeval JSON dataset (``agree --dataset``;
    Fournier 2013, segeval-exact), the pairwise table, and bootstrap intervals over items.

    Returns:
        A JSON-ready dict: ``multi``, ``pairwise``, ``ci`` (per similarity), ``coders``, ``items``,
        ``definitions`` and ``dataset`` (the path).

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: the file is not a segeval dataset (JSON with ``segmentation_type`` and ``items``),
            naming what is wrong (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> import json
            >>> masses = {"an1": [2, 3, 6], "an2": [2, 3, 6], "an3": [5, 6]}
            >>> data = {"segmentation_type": "linear", "items": {"text": masses}}
            >>> _ = open("tiny.json", "w").write(json.dumps(data))
            >>> result = segagree.agree_dataset("tiny.json", n_boot=100)
            >>> sorted(result)
            ['ci', 'coders', 'dataset', 'definitions', 'items', 'kind', 'multi', 'pairwise']
    """
    from segagree.scoring.tokens.agreement import agree_dataset as score_dataset
    from segagree.scoring.tokens.agreement import load_segeval_json

    check_seed(seed)
    result = score_dataset(load_segeval_json(Path(path)), n_boot=n_boot, seed=seed)
    result["dataset"] = str(path)
    return result

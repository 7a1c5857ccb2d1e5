"""The Python API: what the command line does, as functions a notebook can call.

Every ``segagree`` command is a thin face over one function here (the table ``COMMANDS``)::

    import segagree

    doc = segagree.read("talk.ann1.eaf", tiers=["ROSA", "BEN"])
    report = segagree.convert("talk.ann1.eaf", "talk.ann1.TextGrid")   # what the target cannot hold
    result = segagree.compare("talk.ann1.txt", "talk.ann2.csv", metrics="all")
    result.sf, result.sf_b, result.per_speaker["ROSA"], result.metrics
    agreement = segagree.agree("t.a1.txt", "t.a2.txt", "t.a3.txt", sims=1000, seed=1)
    outcome = segagree.run("corpus/", "results/", jobs=2)

Definitions: S_f and S_f^B are Lai, Li & Zhang (2023)'s flexible segmentation similarity and its
boundary-normalised variant; S, B and the boundary edit distance are Fournier (2013) /
Fournier & Inkpen (2012); Pk is Beeferman, Berger & Lafferty (1999); WindowDiff is Pevzner &
Hearst (2002); ghd is Bookstein, Kulyukin & Raita (2002) as NLTK computes it; kappa is the
chance-corrected agreement of Lai et al. (2023, section 5) with Cohen's (or Scott's, Bennett's)
chance model. ``segagree.metric_cards()`` lists every metric's definition and citation.

Results are plain dicts with typed attribute access (:class:`CompareResult`,
:class:`AgreementResult`), so ``json.dumps(result)`` works and ``result.sf`` reads well.

The functions live in modules by task (``documents``, ``comparison``, ``scores``, ``time_units``, ``review``,
``corpus``, ``subtitles``, ``machine_panel``); this module holds only the one list of public names,
which the package top (``segagree``) also serves. Nothing is imported until a name is first used,
so ``import segagree`` stays cheap.
"""

from __future__ import annotations

# Not `from typing import Any`: importing typing alone costs more than this module.

# THE list of public names: name -> the module that defines it. `segagree.X` and `segagree.api.X`
# are these names (and only these, plus the measure-name constants below).
PUBLIC: dict[str, str] = {
    # documents
    "read": "segagree.api.documents",
    "write": "segagree.api.documents",
    "reader_options": "segagree.api.documents",
    "convert": "segagree.api.documents",
    "convert_folder": "segagree.api.documents",
    "ConversionReport": "segagree.api.documents",
    "BatchConversion": "segagree.api.documents",
    "list_formats": "segagree.api.documents",
    "FormatInfo": "segagree.api.documents",
    # scores of one text
    "compare": "segagree.api.comparison",
    "write_operations": "segagree.api.comparison",
    "agree": "segagree.api.scores",
    "agree_dataset": "segagree.api.scores",
    "metric_cards": "segagree.api.scores",
    "measure_names": "segagree.api.comparison",
    "CompareResult": "segagree.api.comparison",
    "AgreementResult": "segagree.api.scores",
    # units in time
    "read_time_units": "segagree.api.time_units",
    "time_plan": "segagree.api.time_units",
    "agree_time": "segagree.api.time_units",
    "TimeAgreementResult": "segagree.api.time_units",
    # review and adjudication
    "review": "segagree.api.reviews",
    "review_time": "segagree.api.reviews",
    "review_page_media": "segagree.api.reviews",
    "adjudicate": "segagree.api.reviews",
    "adjudicate_time": "segagree.api.reviews",
    "is_time_review": "segagree.api.reviews",
    "ReviewOutcome": "segagree.api.reviews",
    "CueSettings": "segagree.api.reviews",
    "pause_baseline": "segagree.api.cue_baseline",
    "TimeReviewOutcome": "segagree.api.reviews",
    # corpus runs and panels
    "run": "segagree.api.corpus",
    "RunOutcome": "segagree.corpus.outcome",
    "panel": "segagree.api.machine_panel",
    "PanelResult": "segagree.api.machine_panel",
    # subtitle tools
    "degrade": "segagree.api.subtitles",
    "segment": "segagree.api.subtitles",
    "check_style": "segagree.api.subtitles",
    "study": "segagree.api.subtitles",
    # the sample corpora (the tour's files)
    "sample_corpora_path": "segagree.api.samples",
    "copy_sample_corpora": "segagree.api.samples",
    # the model and result types
    "Document": "segagree.model",
    "BoundaryScheme": "segagree.model",
    "load_scheme": "segagree.model",
    "LossReport": "segagree.model.losses",
    "SfResult": "segagree.metrics.boundary.sf",
    "SfKappaResult": "segagree.metrics.chance.sf_kappa",
    "KappaEstimate": "segagree.metrics.chance.sf_kappa",
    "MetricCard": "segagree.metrics.contract",
    "AdjudicationReport": "segagree.adjudication.tokens",
    "TimeAdjudication": "segagree.adjudication.time",
    # errors
    "SegagreeError": "segagree.errors",
    "InputError": "segagree.errors",
    "MismatchError": "segagree.errors",
    "MissingFileError": "segagree.errors",
    "SchemeError": "segagree.errors",
    "UsageError": "segagree.errors",
}

# Names that key the results and option defaults, for the command line (each written once, on its measure's card).
CONSTANTS: dict[str, str] = {
    "SF_NAMES": "segagree.metrics.boundary.sf",
    "KAPPA_NAMES": "segagree.metrics.chance.kappa",
    "MULTI_NAMES": "segagree.metrics.chance.fleiss",
    "POOLED": "segagree.corpus.rows",  # the text and speaker of a pooled summary row
    # the chance models of S_f's kappa and the simulation's defaults (the options' defaults)
    "CHANCE_MODELS": "segagree.metrics.chance.models",
    "DEFAULT_CHANCE": "segagree.metrics.chance.models",
    "DEFAULT_SIMS": "segagree.metrics.chance.models",
    "MODES": "segagree.metrics.boundary.modes",  # S_f's search modes
}

# Each command of the command line (`segagree --help`) and its track -> the API function it calls.
COMMANDS: dict[str, str] = {
    "convert": "convert",
    "convert FOLDER": "convert_folder",
    "compare": "compare",
    "compare --ops": "write_operations",
    "agree": "agree",
    "agree --time": "agree_time",
    "agree --time --plan": "time_plan",
    "agree --dataset": "agree_dataset",
    "panel": "panel",
    "review": "review",
    "review --time": "review_time",
    "baseline": "pause_baseline",
    "adjudicate": "adjudicate",
    "adjudicate (time review)": "adjudicate_time",
    "run": "run",
    "run --time": "run",
    "formats": "list_formats",
    "metrics": "metric_cards",
    "check": "check_style",
    "segment": "segment",
    "degrade": "degrade",
    "study": "study",
    "demo": "copy_sample_corpora",
}

# For type checkers and IDEs only (at run time the names load lazily): the same names as PUBLIC and the
# constants above, which tests/api/test_public_names.py checks.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from segagree.adjudication.time import TimeAdjudication  # noqa: F401
    from segagree.adjudication.tokens import AdjudicationReport  # noqa: F401
    from segagree.api.comparison import CompareResult, compare, measure_names, write_operations  # noqa: F401
    from segagree.api.corpus import run  # noqa: F401
    from segagree.api.cue_baseline import pause_baseline  # noqa: F401
    from segagree.api.documents import (  # noqa: F401
        BatchConversion,
        ConversionReport,
        FormatInfo,
        convert,
        convert_folder,
        list_formats,
        read,
        reader_options,
        write,
    )
    from segagree.api.machine_panel import PanelResult, panel  # noqa: F401
    from segagree.api.reviews import (  # noqa: F401
        CueSettings,
        ReviewOutcome,
        TimeReviewOutcome,
        adjudicate,
        adjudicate_time,
        is_time_review,
        review,
        review_page_media,
        review_time,
    )
    from segagree.api.samples import copy_sample_corpora, sample_corpora_path  # noqa: F401
    from segagree.api.scores import AgreementResult, agree, agree_dataset, metric_cards  # noqa: F401
    from segagree.api.subtitles import check_style, degrade, segment, study  # noqa: F401
    from segagree.api.time_units import TimeAgreementResult, agree_time, read_time_units, time_plan  # noqa: F401
    from segagree.corpus.outcome import RunOutcome  # noqa: F401
    from segagree.corpus.rows import POOLED  # noqa: F401
    from segagree.errors import (  # noqa: F401
        InputError,
        MismatchError,
        MissingFileError,
        SchemeError,
        SegagreeError,
        UsageError,
    )
    from segagree.metrics.boundary.modes import MODES  # noqa: F401
    from segagree.metrics.boundary.sf import SF_NAMES, SfResult  # noqa: F401
    from segagree.metrics.chance.fleiss import MULTI_NAMES  # noqa: F401
    from segagree.metrics.chance.kappa import KAPPA_NAMES  # noqa: F401
    from segagree.metrics.chance.models import CHANCE_MODELS, DEFAULT_CHANCE, DEFAULT_SIMS  # noqa: F401
    from segagree.metrics.chance.sf_kappa import KappaEstimate, SfKappaResult  # noqa: F401
    from segagree.metrics.contract import MetricCard  # noqa: F401
    from segagree.model import BoundaryScheme, Document, load_scheme  # noqa: F401
    from segagree.model.losses import LossReport  # noqa: F401

__all__ = [*PUBLIC]


def __getattr__(name: str) -> object:
    module = PUBLIC.get(name) or CONSTANTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *PUBLIC})

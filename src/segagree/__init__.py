"""segagree: segmentation similarity and agreement for corpus linguists.

Reads Rezonator, ELAN, Praat, SRT, plain transcripts and spreadsheets into one canonical model
(:mod:`segagree.model`), scores pairs of segmentations (:mod:`segagree.metrics`), turns
similarity into chance-corrected agreement and writes review spreadsheets and reports
(:mod:`segagree.scoring`, :mod:`segagree.outputs`).

The Python API is at the package top (see :mod:`segagree.api`)::

    import segagree
    a = segagree.read("talk.ann1.txt")
    result = segagree.compare(a, "talk.ann2.eaf", metrics="all")  # every boundary metric
    print(result.sf, result.sf_b)

Names are imported on first use (module ``__getattr__``), so ``import segagree`` stays cheap.
"""

from __future__ import annotations

import segagree.api as _api
from segagree.api import PUBLIC as _PUBLIC

# the API's one list of public names (segagree.api.PUBLIC), and the version
__all__ = ["__version__", *_PUBLIC]

# Not `from typing import TYPE_CHECKING`: importing typing alone costs more than this module.
TYPE_CHECKING = False
if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily (the same names as
    # segagree.api.PUBLIC, which tests/api/test_public_names.py checks)
    from segagree.api import (  # noqa: F401
        AdjudicationReport,
        AgreementResult,
        BatchConversion,
        BoundaryScheme,
        CompareResult,
        ConversionReport,
        CueSettings,
        Document,
        FormatInfo,
        InputError,
        KappaEstimate,
        LossReport,
        MetricCard,
        MismatchError,
        MissingFileError,
        PanelResult,
        ReviewOutcome,
        RunOutcome,
        SchemeError,
        SegagreeError,
        SfKappaResult,
        SfResult,
        TimeAdjudication,
        TimeAgreementResult,
        TimeReviewOutcome,
        UsageError,
        adjudicate,
        adjudicate_time,
        agree,
        agree_dataset,
        agree_time,
        check_style,
        compare,
        convert,
        convert_folder,
        copy_sample_corpora,
        degrade,
        is_time_review,
        list_formats,
        load_scheme,
        measure_names,
        metric_cards,
        panel,
        pause_baseline,
        read,
        read_time_units,
        reader_options,
        review,
        review_page_media,
        review_time,
        run,
        sample_corpora_path,
        segment,
        study,
        time_plan,
        write,
        write_operations,
    )


def __getattr__(name: str) -> object:
    if name == "__version__":
        import segagree.version as installed

        value = installed.__version__
    elif name in _PUBLIC:
        value = getattr(_api, name)  # the API loads its names on first use
    else:
        raise AttributeError(f"module 'segagree' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

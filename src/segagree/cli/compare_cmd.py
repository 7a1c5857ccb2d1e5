"""``segagree compare A B``: S_f / S_f^B (and any other metric) per speaker and pooled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from segagree.cli.agree_time import measure_parameter_options
from segagree.cli.common import (
    SEED,
    Reading,
    SpeakerLabels,
    check_applicable,
    check_writable,
    csv_guard_option,
    done,
    examples,
    fmt_score,
    given_only,
    json_option,
    max_mismatch_option,
    mode_option,
    pair_arguments,
    print_json,
    quiet_option,
    reading_options,
    say,
    say_unpaired,
    scheme_option,
    show,
    speaker_labels_option,
    split_names,
)


@click.command(
    epilog=examples(
        "segagree compare garden.ann1.txt garden.ann2.txt",
        "segagree compare garden.ann1.txt tables/garden.ann2.csv --scheme lai2023",
        "segagree compare garden.ann1.txt garden.ann2.txt --ops operations.csv",
        "segagree compare garden.ann1.txt garden.ann2.txt --metric all --json",
        "segagree compare film.ref.srt film.mt.srt --metric subtitles",
        "segagree compare time/kim.TextGrid time/lee.TextGrid --metric gamma",
        "segagree compare garden.ann1.txt garden.ann2.txt --align --max-mismatch 0.3",
    )
)
@pair_arguments
@scheme_option
@mode_option
@click.option(
    "--metric",
    multiple=True,
    metavar="NAMES",
    callback=lambda ctx, param, values: ",".join(split_names(ctx, param, values)) or None,
    help="Metrics besides S_f (default: S_f only): repeat or give a comma list; 'all' (boundary metrics), "
    "'agreement', 'subtitles' or 'time' (units in time, as agree --time; see segagree metrics). Official "
    "scorers named alone (ud_sentences, disrpt_seg, edus_seg) are given alone, as their scripts give them "
    "(add sf for S_f).",
)
@click.option("--layer", metavar="NAME", help="Layer to compare (default iu); a comma list compares layers as sets.")
@click.option("--transpositions/--no-transpositions", default=True, help="Let S_f move a boundary (default) or not.")
@click.option("--align", is_flag=True, help="Align differing transcripts instead of refusing them.")
@click.option(
    "--one-stream",
    is_flag=True,
    help="CoNLL-U / DISRPT: score each file as one stream of its words in file order, as the official scripts "
    "do, instead of pairing documents by id (the default only where one file has no '# newdoc id').",
)
@click.option(
    "--disrpt-version",
    type=click.Choice(["2023", "2019"]),
    help="disrpt_seg: how seg_eval.py builds connective spans, as in the 2023 shared task (default) or 2019.",
)
@click.option(
    "--first-token",
    type=click.Choice(["marked", "always"]),
    help="disrpt_seg: a document's first token begins a unit where the file marks it, as seg_eval.py counts "
    "(default), or always.",
)
@max_mismatch_option
@speaker_labels_option
@reading_options
@click.option(
    "--ops",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every edit operation to a CSV ('-': to standard output, instead of the table).",
)
@click.option(
    "--language",
    type=click.Choice(["zh", "ja", "ko"]),
    help="Subtitle metrics: SubER's tokenisation for Chinese, Japanese or Korean (its -l).",
)
@click.option("--max-cpl", type=int, default=42, show_default=True, help="Subtitle metrics: characters per line.")
@click.option("--seed", type=SEED, metavar="N", help="Random measures (gamma's chance disorder): the seed.")
@measure_parameter_options
@json_option()
@quiet_option
@csv_guard_option
def compare(
    file_a: Path,
    file_b: Path,
    scheme: str | None,
    mode: str,
    metric: str | None,
    layer: str | None,
    transpositions: bool,
    align: bool,
    one_stream: bool,
    disrpt_version: str | None,
    first_token: str | None,
    max_mismatch: float,
    speaker_labels: SpeakerLabels,
    reading: Reading,
    ops: Path | None,
    language: str | None,
    max_cpl: int,
    seed: int | None,
    json_out: bool,
    quiet: bool,
    **time_params: Any,
) -> None:
    """Compare two segmentations of the same text: S_f, S_f^B and other metrics.

    FILE_A and FILE_B may be in any formats. S_f and S_f^B (Lai, Li & Zhang 2023) are
    given per speaker and pooled; --metric adds B, S, A, Pk, WindowDiff, WinPR, ghd or the
    subtitle metrics (FILE_A is the reference; any hypothesis, machine output included: S_f is
    then reported as not applicable when the words are too different to align). An official
    scorer's figure named alone (disrpt_seg, ud_sentences) is given alone, per document and
    pooled, every digit as its script prints it.
    """
    import segagree.api as api
    from segagree.cli.streams import input_files, is_stdio, output_file
    from segagree.errors import UsageError

    check_applicable("compare", "token", lambda: _chosen(metric), choose="--metric")
    opts = reading.options
    if ops is not None:
        if not set(api.SF_NAMES) & set(_chosen(metric)):
            raise UsageError(
                "--ops lists S_f's edit operations, and official scorers named alone compute no S_f: "
                f"name sf too (--metric sf,{metric})"
            )
        check_writable(ops)
        if is_stdio(ops) and json_out:
            raise UsageError("--ops - and --json both write to standard output: give --ops a file name")
    sch = api.load_scheme(scheme) if ops is not None else scheme
    with input_files([file_a, file_b], reading.format) as (path_a, path_b):
        # The API reads the files (DISRPT's figure straight from them, as its script reads them); --ops
        # needs the Documents themselves, for the words around each operation.
        given = [api.read(p, reading.format, scheme=sch, **opts) for p in (path_a, path_b)] if ops else []
        result = api.compare(
            *(given or (path_a, path_b)),
            metrics=metric,
            scheme=sch,
            format=None if given else reading.format,
            read_options=None if given else opts,
            mode=mode.lower(),
            align=align,
            max_mismatch=max_mismatch,
            layer=layer,
            transpositions=transpositions,
            **speaker_labels.api_keywords(),
            with_operations=json_out or ops is not None,  # the table shows counts only
            review_rows=ops is not None,
            metric_options={
                **_metric_options(language=language, max_cpl=max_cpl, seed=seed, **time_params),
                **{k: v for k, v in (("version", disrpt_version), ("first_token", first_token)) if v},
            },
            one_stream=one_stream,
        )
    if ops is not None:
        with output_file(ops, "csv") as ops_path:
            n = api.write_operations(result, ops_path, a=given[0], b=given[1])
        done(f"wrote {n} operations to {'standard output' if is_stdio(ops) else ops}")
    result.pop("operation_rows", None)
    say_unpaired(result.get("unpaired_speakers"))
    for note in result.get("notes") or []:
        say(note)
    if is_stdio(ops):
        return  # standard output holds the operations: the table would be in the way
    if json_out:
        print_json(result)
        return
    _print_table(result, file_a, file_b)


def _chosen(metric: str | None) -> list[str]:
    """The measures compare scores: S_f, S_f^B and ``--metric``'s."""
    import segagree.api as api

    return api.measure_names(metric)


def _metric_options(**values: Any) -> dict[str, Any]:
    """The measures' parameters the user gave (the others are the measures' defaults; the API refuses a
    parameter no chosen measure takes)."""
    out = given_only(**values)
    return {k: v.lower() if k in ("category", "sampler", "gamma_cat_variant") else v for k, v in out.items()}


COUNTS = ("matches", "substitutions", "transpositions", "insertions", "deletions")


def _print_table(result: dict[str, Any], file_a: Path, file_b: Path) -> None:
    import segagree.api as api
    from segagree.cli.tables import ScoreTable

    if result.get("sf_not_asked"):  # official scorers alone: their figures, per document and pooled
        show(f"{file_a.name} vs {file_b.name}")
        per = [s for res in result["metrics"].values() for s in (res.get("per_speaker") or {})]
        _print_other(result, list(result["speakers"]) or list(dict.fromkeys(per)), title="official figures")
        _print_mismatches(result)
        return
    sf, sf_b = api.SF_NAMES
    if result.get(sf) is None and result.get("sf_not_applicable"):
        show(f"{file_a.name} vs {file_b.name}: {result['sf_not_applicable']}")
        _print_other(result, [])
        return
    # "edits" (M+S+T+I+D) is left to --json: with it the table did not fit 80 columns.
    speakers = list(result["per_speaker"])
    table = ScoreTable(
        ["speaker", "tokens", "S_f", "S_f^B", "cost", "M", "S", "T", "I", "D"],
        title=f"{file_a.name} vs {file_b.name}",
        caption="M match, S substitution, T transposition, I insertion, D deletion",
    )
    for i, (name, st) in enumerate([*((s, result["per_speaker"][s]) for s in speakers), ("ALL", result)]):
        table.add_row(
            name,
            st["n_tokens"],
            fmt_score(st[sf]),
            fmt_score(st[sf_b]),
            f"{st['cost']:g}",
            *(st[k] for k in COUNTS),
            end_section=i == len(speakers) - 1,
        )
    table.print()
    show(result["signature"])
    for side, names in sorted((result.get("unpaired_speakers") or {}).items()):
        if names:
            show(f"not scored, speakers only in {side.upper()}: {', '.join(names)}")
    if result["metrics"]:
        _print_other(result, speakers)
    _print_mismatches(result)


def _print_mismatches(result: dict[str, Any]) -> None:
    """How many transcript differences the alignment bridged (the figures above rest on it)."""
    if result["mismatches"]:
        n = len(result["mismatches"])
        show(f"{n} transcript {'mismatch was' if n == 1 else 'mismatches were'} aligned (listed in --json)")


def _print_other(result: dict[str, Any], speakers: list[str], title: str = "other metrics") -> None:
    import segagree.api as api
    from segagree.cli.tables import MatrixRow, ScoreTable, print_matrix

    suber, info, metrics = api.CompareResult(result).suber()
    if suber is not None:
        table = ScoreTable(["metric", "value"], title=f"SubER metrics ({info.get('signature', 'suber')})")
        for sub, value in suber.items():
            table.add_row(sub, f"{value:.3f}")
        table.print()
        for sub, reason in (info.get("not_applicable") or {}).items():
            show(f"{sub}: not applicable: {reason}")
    if not metrics:
        return
    rows, notes, params = [], [], []
    for name, res in metrics.items():
        per = res.get("per_speaker", {})
        applicable = res.get("applicable", True) and not res.get("not_applicable")
        pooled_value = _value_text(res["value"]) if applicable else "n/a"
        # an official scorer's precision and recall: beside the value, or in its pooled statistics
        prf = res if "precision" in res else res.get("pooled") or {}
        if "precision" in prf and "recall" in prf and res["value"] is not None:
            pooled_value += f" (P {prf['precision']:.3f}, R {prf['recall']:.3f})"
        rows.append(MatrixRow(name, {s: fmt_score(per.get(s)) for s in speakers}, pooled_value))
        if _params_text(res):
            params.append(f"{name}: {_params_text(res)}")
        if res.get("reason") or res.get("not_applicable"):
            notes.append(f"{name}: not applicable: {res.get('reason') or res['not_applicable']}")
        for speaker, reason in (res.get("skipped") or {}).items():
            notes.append(f"{name}: speaker {speaker} not scored: {reason}")
        if applicable and {"correct", "gold", "system"} <= set(prf):
            # an official scorer's own figures, every digit (seg_eval.py prints str of the floats)
            notes.append(
                f"{name} ({res.get('signature') or prf.get('signature', '')}): gold {prf['gold']}, system "
                f"{prf['system']}, correct {prf['correct']}, precision {prf['precision']!r}, recall "
                f"{prf['recall']!r}, F {prf['f1']!r}"
            )
    print_matrix(f"{title} (pooled from summed statistics)", "metric", "speaker", speakers, rows)
    text = next((r["text"] for r in metrics.values() if isinstance(r.get("text"), dict)), None)
    if text and text.get("projected"):
        notes.append(
            f"imperfect text ({text['hypothesis_words']} hypothesis words, {text['reference_words']} reference "
            "words): F1, Pk, WindowDiff, S and B use the hypothesis's breaks projected onto the reference"
        )
    for line in [*(f"parameters: {p}" for p in params), *notes]:
        show(line)


def _value_text(value: Any) -> str:
    """A pooled value; one per category (gamma_k) as ``category value, ...``."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {fmt_score(v)}" for k, v in value.items())
    return fmt_score(value)


def _params_text(res: dict[str, Any]) -> str:
    """A metric's parameters: its signature without name and version, per-speaker k if it varies."""
    parts = [p for p in str(res.get("signature", "")).split("|")[1:] if not p.startswith("v:")]
    if not parts and isinstance(res.get("params"), dict):
        parts = [f"{k}:{v}" for k, v in res["params"].items() if not isinstance(v, dict)]
    ks = (res.get("params") or {}).get("k")
    if isinstance(ks, dict) and len(set(ks.values())) > 1:
        parts = [p for p in parts if not p.startswith("k:")] + [
            "k per speaker: " + ", ".join(f"{s} {k}" for s, k in ks.items())
        ]
    return " ".join(parts)

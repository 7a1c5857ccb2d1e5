"""``segagree compare A B``: S_f / S_f^B (and any other metric) per speaker and pooled."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from segagree.cli import app
from segagree.cli.common import fmt_score, print_json, read, stderr, stdout
from segagree.errors import UsageError
from segagree.pipeline.compare import compare_documents
from segagree.pipeline.io import load_scheme
from segagree.pipeline.metric_runner import resolve_metric_names
from segagree.pipeline.operations import write_operations_csv


@app.command()
def compare(
    file_a: Annotated[Path, typer.Argument(help="annotator A's file (any format)")],
    file_b: Annotated[Path, typer.Argument(help="annotator B's file (any format)")],
    scheme: Annotated[
        str | None, typer.Option(help="boundary scheme: dubois (default), lai2023, segsimflex-vignette, or a file")
    ] = None,
    mode: Annotated[
        str, typer.Option(help="optimal (exact minimum) or segsimflex (the R reference's search)")
    ] = "optimal",
    metric: Annotated[
        str,
        typer.Option(
            help="metrics besides S_f: a comma list, 'all' (boundary metrics) or 'subtitles' (see segagree metrics)"
        ),
    ] = "sf",
    layer: Annotated[
        str | None, typer.Option(help="layer to compare (default iu); a comma list compares layers as segeval sets")
    ] = None,
    from_: Annotated[
        str | None, typer.Option("--from", help="input format of both files (default: by extension)")
    ] = None,
    no_transpositions: Annotated[bool, typer.Option(help="score without transpositions")] = False,
    align: Annotated[bool, typer.Option(help="align differing transcripts instead of failing")] = False,
    ops: Annotated[Path | None, typer.Option(help="write every edit operation to this CSV file")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print one JSON object instead of a table")] = False,
) -> None:
    """Compare two segmentations of the same text.

    Example: segagree compare talk.a1.csv talk.a2.csv --scheme lai2023 --ops ops.csv
    """
    if mode not in ("optimal", "segsimflex"):
        raise UsageError(f"--mode must be optimal or segsimflex, not {mode!r}")
    sch = load_scheme(scheme)
    names = resolve_metric_names(metric)
    a = read(file_a, from_, sch)
    b = read(file_b, from_, sch)
    result = compare_documents(
        a, b, layer=layer, scheme=sch, mode=mode, transpositions=not no_transpositions, align=align, metrics=names
    )
    if ops is not None:
        write_operations_csv(result, ops, a=a, b=b)
        stderr.print(f"wrote {len(result['operations'])} operations to {ops}")
    result.pop("operation_rows", None)
    if json_out:
        print_json(result)
        return
    _print_table(result, file_a, file_b)


def _print_table(result: dict, file_a: Path, file_b: Path) -> None:
    caption = "M match, S substitution, T transposition, I insertion, D deletion\n" + result["signature"]
    table = Table(title=f"{file_a.name} vs {file_b.name}", caption=caption)
    columns = ["speaker", "tokens", "S_f", "S_f^B", "cost", "edits", "M", "S", "T", "I", "D"]
    for col in columns:
        table.add_column(col, justify="left" if col == "speaker" else "right", no_wrap=col != "speaker")
    speakers = list(result["per_speaker"])
    for name, st in [*((s, result["per_speaker"][s]) for s in speakers), ("ALL", result)]:
        table.add_row(
            name,
            str(st["n_tokens"]),
            fmt_score(st["sf"]),
            fmt_score(st["sf_b"]),
            f"{st['cost']:g}",
            str(st["edits"]),
            *(str(st[k]) for k in COUNTS),
            end_section=bool(speakers) and name == speakers[-1],
        )
    stdout.print(table)
    if result["metrics"]:
        other = Table(title="other metrics (pooled from summed statistics)")
        for col in ("metric", *speakers, "ALL", "parameters"):
            other.add_column(col, justify="left" if col in ("metric", "parameters") else "right")
        notes = []
        for name, res in result["metrics"].items():
            per = res.get("per_speaker", {})
            pooled_value = fmt_score(res["value"]) if res.get("applicable", True) else "n/a"
            if "precision" in res and res["value"] is not None:
                pooled_value += f" (P {res['precision']:.3f}, R {res['recall']:.3f})"
            other.add_row(name, *(fmt_score(per.get(s)) for s in speakers), pooled_value, _params_text(res))
            if res.get("reason"):
                notes.append(f"{name}: not applicable: {res['reason']}")
        stdout.print(other)
        text = next((r["text"] for r in result["metrics"].values() if isinstance(r.get("text"), dict)), None)
        if text and not text.get("identical", True):
            notes.append(
                f"imperfect text: {text['matched']} of {text['n_reference_tokens']} reference tokens matched; "
                "break metrics use the hypothesis's breaks projected onto the reference"
            )
        for note in notes:
            stdout.print(note, markup=False)
    if result["mismatches"]:
        stdout.print(f"{len(result['mismatches'])} transcript mismatches were aligned")


COUNTS = ("matches", "substitutions", "transpositions", "insertions", "deletions")


def _params_text(res: dict) -> str:
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

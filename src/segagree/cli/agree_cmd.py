"""``segagree agree FILE FILE [FILE...]`` and ``segagree agree --dataset segeval.json``:
chance-corrected agreement (see :mod:`segagree.pipeline.agreement`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from segagree.cli import app
from segagree.cli.common import fmt_score, print_json, read, stderr, stdout
from segagree.errors import UsageError
from segagree.pipeline.agreement import DEFINITIONS, agree_dataset, agree_documents, load_segeval_json
from segagree.pipeline.io import CHANCE_MODELS, load_scheme

_H_FILES = "two or more annotations of the same text (any formats)"
_H_DATASET = "a segeval JSON dataset (items x coders, masses) instead of files"
_H_SCHEME = "boundary scheme: dubois (default), lai2023, segsimflex-vignette, or a file"
_H_MODE = "optimal (exact minimum) or segsimflex (the R reference's search)"
_H_FROM = "input format of the files (default: by extension)"
_DEFS = "\n\n".join(f"{k}: {v}" for k, v in DEFINITIONS.items())


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    if not enabled or total <= 0:
        yield None
        return
    with Progress(
        TextColumn("simulating chance pairs"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr,
        transient=True,
    ) as bar:
        task = bar.add_task("sims", total=total)
        yield lambda n: bar.advance(task, n)


@app.command(epilog="Definitions:\n\n" + _DEFS)
def agree(
    files: Annotated[list[Path] | None, typer.Argument(help=_H_FILES)] = None,
    dataset: Annotated[Path | None, typer.Option(help=_H_DATASET)] = None,
    sims: Annotated[int, typer.Option(help="K: simulated chance pairs per speaker")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the simulations and the bootstrap")] = 12345,
    chance: Annotated[str, typer.Option(help="chance model: " + ", ".join(CHANCE_MODELS))] = "cohen",
    exact: Annotated[bool, typer.Option(help="exact chance expectation of S_f (needs --no-transpositions)")] = False,
    jobs: Annotated[int, typer.Option(help="worker processes for the simulations (same numbers for any value)")] = 1,
    scheme: Annotated[str | None, typer.Option(help=_H_SCHEME)] = None,
    mode: Annotated[str, typer.Option(help=_H_MODE)] = "optimal",
    no_transpositions: Annotated[bool, typer.Option(help="score S_f without transpositions")] = False,
    layer: Annotated[str | None, typer.Option(help="layer to compare (default iu)")] = None,
    from_: Annotated[str | None, typer.Option("--from", help=_H_FROM)] = None,
    align: Annotated[bool, typer.Option(help="align differing transcripts instead of failing")] = False,
    ci_speakers: Annotated[bool, typer.Option(help="bootstrap intervals over the speakers of the text")] = False,
    n_boot: Annotated[int, typer.Option(help="bootstrap resamples")] = 1000,
    json_out: Annotated[bool, typer.Option("--json", help="print one JSON object instead of tables")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Chance-corrected agreement: S_f, S_f^B and their kappas per speaker and pooled; multi-pi,
    multi-kappa and bias for three or more annotators; or S/B agreement of a segeval dataset.

    Example: segagree agree talk.a1.csv talk.a2.csv talk.a3.csv --sims 1000 --seed 1
    """
    if sims < 1:
        raise UsageError(f"--sims must be at least 1, got {sims}")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    if n_boot < 1:
        raise UsageError(f"--n-boot must be at least 1, got {n_boot}")
    if chance not in CHANCE_MODELS:
        raise UsageError(f"--chance must be one of {', '.join(CHANCE_MODELS)}, not {chance!r}")
    if mode not in ("optimal", "segsimflex"):
        raise UsageError(f"--mode must be optimal or segsimflex, not {mode!r}")
    paths = list(files or [])
    if dataset is not None:
        if paths:
            raise UsageError("give either annotation files or --dataset, not both")
        result = agree_dataset(load_segeval_json(dataset), n_boot=n_boot, seed=seed)
        result["dataset"] = str(dataset)
        if json_out:
            print_json(result)
        else:
            _print_dataset(result)
        return
    if len(paths) < 2:
        raise UsageError(f"agree needs two or more annotation files of the same text (or --dataset), got {len(paths)}")
    sch = load_scheme(scheme)
    docs = [read(p, from_, sch) for p in paths]
    n_speakers = len({s for d in docs for s in d.speakers})
    n_pairs = len(docs) * (len(docs) - 1) // 2
    total = 0 if exact else sims * n_speakers * n_pairs
    show = not quiet and sys.stderr.isatty()
    with _progress(total, show) as progress:
        result = agree_documents(
            docs,
            names=[p.name for p in paths],
            scheme=sch,
            layer=layer,
            align=align,
            mode=mode,
            transpositions=not no_transpositions,
            chance=chance,
            chance_method="exact" if exact else "simulation",
            sims=sims,
            seed=seed,
            jobs=jobs,
            ci_over="speakers" if ci_speakers else "texts",
            n_boot=n_boot,
            progress=progress,
        )
    if json_out:
        print_json(result)
        return
    _print_documents(result)


def _k(est: dict[str, Any] | None) -> str:
    if not est or est.get("kappa") is None:
        return "-"
    se = est.get("se")
    return f"{est['kappa']:.4f}" + (f" ±{se:.4f}" if se else "")


def _print_documents(result: dict[str, Any]) -> None:
    many = len(result["annotators"]) > 2
    for pair in result["pairs"]:
        caption = pair["signature"]
        table = Table(title=f"{pair['a']} vs {pair['b']}", caption=caption)
        for col in (
            "speaker",
            "tokens",
            "S_f",
            "S_f^B",
            "kappa S_f (±MC se)",
            "kappa S_f^B (±MC se)",
            "chance S_f",
            "chance S_f^B",
        ):
            table.add_column(col, justify="left" if col == "speaker" else "right")
        rows = [*pair["speakers"].items(), ("ALL", pair["pooled"])]
        for name, st in rows:
            ks, kb = st.get("kappa_sf"), st.get("kappa_sf_b")
            table.add_row(
                name,
                str(st["n_tokens"]),
                fmt_score(st["sf"]),
                fmt_score(st["sf_b"]),
                _k(ks),
                _k(kb),
                fmt_score(ks and ks.get("chance_mean")),
                fmt_score(kb and kb.get("chance_mean")),
                end_section=name == rows[-2][0],
            )
        stdout.print(table)
        ci = pair["ci"]["kappa_sf"]
        if ci["low"] is None:
            stdout.print(f"no interval: {ci['reason']}")
        else:
            lines = [f"{k} [{fmt_score(v['low'])}, {fmt_score(v['high'])}]" for k, v in pair["ci"].items()]
            stdout.print(f"{int(ci['level'] * 100)}% bootstrap over {ci['unit']}s: " + "; ".join(lines))
    if many:
        _print_pairwise(result)
        if result["multi"]:
            _print_multi(result["multi"], "multi-annotator agreement (S_f, S_f^B)")
        else:
            stdout.print(result["multi_reason"])


def _print_pairwise(result: dict[str, Any]) -> None:
    table = Table(title="pairwise (pooled over speakers)")
    for col in ("A", "B", "S_f", "S_f^B", "kappa S_f", "kappa S_f^B"):
        table.add_column(col, justify="left" if col in ("A", "B") else "right")
    for p in result["pairs"]:
        po = p["pooled"]
        table.add_row(
            p["a"], p["b"], fmt_score(po["sf"]), fmt_score(po["sf_b"]), _k(po["kappa_sf"]), _k(po["kappa_sf_b"])
        )
    stdout.print(table)


def _print_multi(multi: dict[str, Any], title: str) -> None:
    table = Table(title=title)
    for col in ("similarity", "A_a", "A_e (pi)", "A_e (kappa)", "multi-pi", "multi-kappa", "bias"):
        table.add_column(col, justify="left" if col == "similarity" else "right")
    for sim, r in multi.items():
        table.add_row(
            sim,
            fmt_score(r["actual"]),
            fmt_score(r["expected_pi"]),
            fmt_score(r["expected_kappa"]),
            fmt_score(r["pi"]),
            fmt_score(r["kappa"]),
            fmt_score(r["bias"]),
        )
    stdout.print(table)


def _print_dataset(result: dict[str, Any]) -> None:
    _print_multi(result["multi"], f"{result['dataset']}: {len(result['items'])} items, {len(result['coders'])} coders")
    for sim, rows in result["pairwise"].items():
        table = Table(title=f"pairwise ({sim.upper()})")
        for col in ("A", "B", "A_a", "Scott's pi", "Cohen's kappa", "bias"):
            table.add_column(col, justify="left" if col in ("A", "B") else "right")
        for r in rows:
            table.add_row(
                r["coder_a"],
                r["coder_b"],
                fmt_score(r["actual"]),
                fmt_score(r["scott_pi"]),
                fmt_score(r["cohen_kappa"]),
                fmt_score(r["bias"]),
            )
        stdout.print(table)
    for sim, cis in result["ci"].items():
        ci = cis["pi"]
        if ci["low"] is None:
            stdout.print(f"{sim}: no interval: {ci['reason']}")
        else:
            lines = [f"{k} [{fmt_score(v['low'])}, {fmt_score(v['high'])}]" for k, v in cis.items()]
            stdout.print(f"{sim}: {int(ci['level'] * 100)}% bootstrap over items: " + "; ".join(lines))

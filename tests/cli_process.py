"""Run the ``segagree`` command line in a child process forked from the test process.

A command started as ``python -m segagree`` pays the interpreter's start-up and every import
(numpy, the readers, numba and its compiled kernels: up to a second of CPU) again; the tests
start hundreds of them. :func:`run_cli` forks the test process instead, where all of that is
loaded already, and runs :func:`segagree.cli.main` in the child exactly as the console script
does: fresh standard streams on pipes (UTF-8, like a new interpreter here), its own working
folder and environment, default signal handlers, no atexit functions of the parent, and the
exit status of ``sys.exit``. It returns what :func:`subprocess.run` with ``capture_output=True,
text=True`` returns, so a test reads it the same way.

What only a new interpreter shows goes to a real process (:func:`subprocess.run`): an
environment that Python reads at start-up (``PYTHON*`` variables, the locale), worker pools
(``--jobs`` above 1, ``--sample-jobs``, ``--backend``: the test process may own a pool of
its own), and platforms without ``fork``.
"""

from __future__ import annotations

import gc
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# Read by the interpreter when it starts, not later: an environment that changes them needs a new one.
_START_UP_VARIABLES = ("LANG", "LC_ALL", "LC_CTYPE")
_POOL_OPTIONS = ("--sample-jobs", "--backend")


def _start_up_environment() -> dict[str, str]:
    """The environment this interpreter started with, which a forked child's interpreter was set
    up from. Not ``os.environ`` now: a Dask cluster's nanny writes ``PYTHONHASHSEED`` (and thread
    counts) into it for good, and every later command of that test process compared unequal and
    paid a new interpreter (0.3 to 1 s of CPU each). Linux keeps the start-up one in /proc."""
    try:
        raw = Path("/proc/self/environ").read_bytes()
    except OSError:
        return dict(os.environ)  # imported while the tests are collected: before any test runs
    pairs = (os.fsdecode(item).partition("=") for item in raw.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


_STARTED_WITH = _start_up_environment()


def _needs_new_interpreter(args: Sequence[str], env: Mapping[str, str] | None) -> bool:
    if not hasattr(os, "fork"):
        return True
    if env is not None:
        for key in set(env) | set(_STARTED_WITH):
            if (key.startswith("PYTHON") or key in _START_UP_VARIABLES) and key != "PYTHONPATH":
                if env.get(key) != _STARTED_WITH.get(key):
                    return True
    for i, arg in enumerate(args):
        if arg in _POOL_OPTIONS or arg.startswith(tuple(o + "=" for o in _POOL_OPTIONS)):
            return True
        value = args[i + 1] if arg in ("--jobs", "-j") and i + 1 < len(args) else None
        if arg.startswith("--jobs="):
            value = arg.split("=", 1)[1]
        if value is not None and value != "1":
            return True
    return False


def _child(
    args: Sequence[str],
    cwd: str | Path | None,
    env: Mapping[str, str] | None,
    out: int,
    err: int,
    script: tuple[str, Callable[[], Any]] | None = None,
    stdin: str | Path | None = None,
) -> None:
    """In the forked child: run the command line (``script``: another console script's name and
    entry point, run as its launcher does) and leave with its exit status (never returns)."""
    code = 1
    try:
        import atexit
        import io

        atexit._clear()  # the parent's exit functions are not the command's
        # The handlers a new interpreter starts with (Ctrl-C raises KeyboardInterrupt; a closed
        # pipe is an error to handle, not a signal).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        devnull = os.open(os.devnull if stdin is None else stdin, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        if cwd is not None:
            os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", write_through=False)
        sys.stderr = io.TextIOWrapper(
            io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
        )
        sys.argv = [script[0] if script else "segagree", *args]
        try:
            from joblib.externals.loky import reusable_executor

            reusable_executor._executor = None  # the parent's pool is not the child's
        except ImportError:  # pragma: no cover
            pass
        try:
            if script is not None:
                sys.exit(script[1]())  # what the console script's launcher does
            import segagree.cli as cli

            cli.State.debug = False
            cli.main(list(args))
            code = 0
        except SystemExit as exit_:
            if exit_.code is None:
                code = 0
            elif isinstance(exit_.code, int):
                code = exit_.code
            else:
                print(exit_.code, file=sys.stderr)
                code = 1
        except BaseException:  # as the interpreter reports an uncaught exception
            import traceback

            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001 - a closed pipe: nothing more to say
                pass
    finally:
        os._exit(code)


_LOADED = False


# An import statement's module names (``from M import``, ``import M as N, O``), anywhere in a source,
# also inside a function. (Walking each module's syntax tree found the same names at 0.5 s of CPU.)
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\w[\w.]*)[ \t]+import\b"
    r"|import[ \t]+(\w[\w.]*(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*\w[\w.]*(?:[ \t]+as[ \t]+\w+)?)*))",
    re.M,
)
# Imported only by the Dask backend, whose commands (--backend) always get a new interpreter.
_NEVER_IN_A_CHILD = ("dask", "distributed")


def _imported_names(source: str) -> list[str]:
    names = []
    for match in _IMPORT.finditer(source):
        if match.group(1):
            names.append(match.group(1))
        else:
            names += [part.split()[0] for part in match.group(2).split(",")]
    return [name for name in names if name.split(".")[0] not in _NEVER_IN_A_CHILD]


def _load_once() -> None:
    """Import the command line, its commands and the readers, and load the compiled kernels, in
    this process once, so every forked child has them (what a new interpreter pays each time)."""
    global _LOADED
    if _LOADED:
        return
    import importlib
    import pkgutil

    import segagree
    from segagree.metrics.chance.sf_kappa import sf_kappa

    # Every module of the package, and every module it imports anywhere, also inside a function
    # (segagree imports pandas, rich, the writers' libraries on first use, to start fast): else
    # each child would import them again, 0.2 to 0.5 s of CPU a command.
    for info in pkgutil.walk_packages(segagree.__path__, "segagree."):
        if info.name.endswith(".__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in _imported_names(Path(module.__file__ or "").read_text(encoding="utf-8")):
            try:
                importlib.import_module(name)
            except (ImportError, OSError):  # an optional library not installed (or its C library)
                pass
    sf_kappa({"s": [0, 1, 0, 2]}, {"s": [1, 0, 0, 2]}, sims=2)  # numba's first call, once
    _LOADED = True


def _text(data: bytes) -> str:
    # What text=True gives: UTF-8 (the locale here), universal newlines.
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _entry_point(name: str) -> Callable[[], Any]:
    """The function the console script ``name`` of an installed package runs."""
    from importlib.metadata import entry_points

    (ep,) = entry_points(group="console_scripts", name=name)
    return ep.load()


def run_cli(
    args: Sequence[str | Path],
    *,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
    preexec: Callable[[], None] | None = None,
    script: str = "segagree",
    stdin: str | Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``segagree ARGS`` as :func:`subprocess.run` would give it (``capture_output=True``,
    ``text=True``), in a child forked from this process (see the module docstring). ``preexec``
    runs in the child before the command (``subprocess``'s ``preexec_fn``: resource limits).
    ``script`` names another console script installed beside this Python (e.g. ``suber``, a
    reference tool), run by its entry point in the forked child the same way. ``stdin``: a file the
    command reads as its standard input (default: none, as ``/dev/null``)."""
    argv = [str(a) for a in args]
    if script != "segagree":
        if env is not None or not hasattr(os, "fork"):
            launcher = [str(Path(sys.executable).parent / script), *argv]
            return subprocess.run(launcher, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
        return _forked(argv, cwd, env, timeout, preexec, (script, _entry_point(script)), stdin)
    if _needs_new_interpreter(argv, env):
        full = {**(env if env is not None else os.environ)}
        src = str(Path(__file__).resolve().parents[1] / "src")
        full["PYTHONPATH"] = src + os.pathsep + full.get("PYTHONPATH", "")
        return subprocess.run(
            [sys.executable, "-m", "segagree", *argv],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=full,
            timeout=timeout,
            preexec_fn=preexec,  # noqa: PLW1509 - resource limits only, set before the program starts
            stdin=None if stdin is None else Path(stdin).open("rb"),  # noqa: SIM115 - closed with the child
        )
    _load_once()
    return _forked(argv, cwd, env, timeout, preexec, None, stdin)


def _forked(
    argv: list[str],
    cwd: str | Path | None,
    env: Mapping[str, str] | None,
    timeout: float,
    preexec: Callable[[], None] | None,
    script: tuple[str, Callable[[], Any]] | None,
    stdin: str | Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Fork, run the command in the child (:func:`_child`), collect its streams and exit status."""
    prog = script[0] if script else "segagree"
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    # The child's garbage collector would walk (and so copy, page by page) every object the test
    # process holds: 0.1 s of CPU a command. Frozen objects are left out of its collections. (The
    # suite's conftest freezes what collection loaded; that stays frozen.)
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    pid = os.fork()
    if pid != 0 and not frozen_before:
        gc.unfreeze()
    if pid == 0:  # pragma: no cover - the child
        os.close(out_r)
        os.close(err_r)
        if preexec is not None:  # e.g. resource limits, as subprocess's preexec_fn
            try:
                preexec()
            except BaseException:  # noqa: BLE001 - as a failed preexec_fn: the command does not run
                os._exit(255)
        _child(argv, cwd, env, out_w, err_w, script, stdin)
    os.close(out_w)
    os.close(err_w)
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(out_r, selectors.EVENT_READ)
        sel.register(err_r, selectors.EVENT_READ)
        open_fds = 2
        while open_fds:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                for fd in chunks:
                    os.close(fd)
                raise subprocess.TimeoutExpired([prog, *argv], timeout)
            for key, _ in sel.select(timeout=left):
                data = os.read(key.fd, 65536)
                if data:
                    chunks[key.fd].append(data)
                else:
                    sel.unregister(key.fd)
                    open_fds -= 1
    os.close(out_r)
    os.close(err_r)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    stdout, stderr = (_text(b"".join(chunks[fd])) for fd in (out_r, err_r))
    return subprocess.CompletedProcess([prog, *argv], code, stdout, stderr)


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) process ``pid`` has used so far, from ``/proc`` (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (fields 14, 15)


def wait_until_working(proc: subprocess.Popen, cpu: float, fallback_sleep: float, timeout: float = 300) -> None:
    """Return once ``proc`` has used ``cpu`` seconds of CPU: past its start-up and into its work, on a
    busy machine as on a quiet one (a fixed sleep either burns CPU the test does not need, or, under
    load, interrupts a process still importing). Without ``/proc``: sleep ``fallback_sleep``."""
    if cpu_seconds(proc.pid) is None:
        time.sleep(fallback_sleep)
        return
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        used = cpu_seconds(proc.pid)
        if used is None or used >= cpu:
            return
        time.sleep(0.02)

"""Shared helpers of the hostile-input suite: seeds, case counts and a bounded
subprocess.

``SEGAGREE_HOSTILE_CASES`` sets how many seeded cases a test runs per kind (:func:`case_count`;
``make fuzz`` runs 10,000, the default keeps ``make test`` fast). A case's seed is its number, so
a failure reruns with ``random.Random(case)``. Work is bounded by counts, sizes and the CPU time
and address space of a subprocess (``RLIMIT_CPU``, ``RLIMIT_AS``), never by wall-clock time.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The generators of the damage tests are reused, not copied.
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "formats"))

MB = 1024 * 1024


def case_count(default: int) -> int:
    """Cases per kind: ``SEGAGREE_HOSTILE_CASES`` or ``default``."""
    try:
        return max(1, int(os.environ.get("SEGAGREE_HOSTILE_CASES", default)))
    except ValueError:
        return default


def seeded(default: int) -> Iterator[tuple[int, random.Random]]:
    """``(case, Random(case))`` for each case."""
    for case in range(case_count(default)):
        yield case, random.Random(case)


@dataclass
class Outcome:
    """A bounded subprocess's exit code and output."""

    code: int
    stdout: str
    stderr: str


def _free_heap_bytes() -> int:
    """Bytes malloc holds free in this process's arenas (glibc's mallinfo2; 0 where unknown):
    mapped already, so a forked child would reuse them without its address space growing."""
    import ctypes

    class _MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks")
        ]

    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return 0
    mallinfo2.restype = _MallInfo2
    return int(mallinfo2().fordblks)


def _address_space() -> int:
    """This process's mapped address space (VmSize, bytes)."""
    with open("/proc/self/status", encoding="ascii") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))


def run_bounded(args: list[str], *, memory_mb: int = 1024, cpu_s: int = 10) -> Outcome:
    """``segagree ARGS`` with at most ``memory_mb`` of address space on top of what the process
    starts with and ``cpu_s`` seconds of CPU (the kernel kills it beyond).

    The command runs in a child forked from the test process (:func:`cli_process.run_cli`: no
    interpreter start-up and imports to pay again; the command line as the console script runs it).
    The child's CPU time starts at zero; its address space starts as the test process's, so the
    budget comes on top of that, less the heap malloc holds free (the child could fill it unseen).
    """
    import cli_process

    if not hasattr(os, "fork") or not Path("/proc/self/status").is_file():  # pragma: no cover
        return _run_bounded_interpreter(args, memory_mb=memory_mb, cpu_s=cpu_s)

    def bounded() -> None:  # in the forked child, before the command runs
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        limit = _address_space() - _free_heap_bytes() + memory_mb * MB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = cli_process.run_cli(args, preexec=bounded)
    return Outcome(done.returncode, done.stdout, done.stderr)


def _run_bounded_interpreter(args: list[str], *, memory_mb: int, cpu_s: int) -> Outcome:  # pragma: no cover
    """:func:`run_bounded` in a new interpreter, where there is no ``fork`` or ``/proc``."""

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        # The address space a Python with numpy/pandas maps before reading anything (threads'
        # arenas, libraries) is counted by RLIMIT_AS, so the budget comes on top of it.
        resource.setrlimit(resource.RLIMIT_AS, ((memory_mb + 1536) * MB, (memory_mb + 1536) * MB))

    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "segagree", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limits,  # noqa: PLW1509 - only resource limits, no threads involved
        env=env,
    )
    out, err = proc.communicate()
    return Outcome(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


def peak_of_read(path: Path) -> float:
    """Peak RSS growth (MB) of reading ``path`` in a fresh process, over the libraries' baseline."""
    # VmHWM, not ru_maxrss: the latter carries the parent's (pytest's) peak over fork and exec.
    code = (
        "import sys\n"
        "import numpy, pandas\n"
        "from segagree.formats import read_document\n"
        "def hwm():\n"
        "    return next(int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmHWM:'))\n"
        "base = hwm()\n"
        "read_document(sys.argv[1])\n"
        "print(hwm() - base)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    res = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env, check=True)
    return int(res.stdout.split()[-1]) / 1024


# --- workbooks, written part by part (a hostile workbook is what no spreadsheet writer makes) ----

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006"
_CT = (
    f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{_PKG}/content-types">'
    f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
)
_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}/relationships">'
    f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_WB = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{_NS}" xmlns:r="{_REL}"><sheets>'
    '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WB_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}/relationships">'
    f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
)
#: A two-column table (Speaker, Utterance) with one row, as shared strings 0-3.
HEADER_ROWS = (
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
    '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row>'
)
STRINGS = ["Speaker", "Utterance", "A", "hello there ."]


def sheet_xml(rows: str, dimension: str | None = None, doctype: str = "") -> str:
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{doctype}<worksheet xmlns="{_NS}">{dim}'
        f"<sheetData>{rows}</sheetData></worksheet>"
    )


def strings_xml(items: list[str]) -> str:
    si = "".join(f"<si><t>{t}</t></si>" for t in items)
    return f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{_NS}" count="{len(items)}">{si}</sst>'


def write_workbook(path: Path, sheet: str, strings: str, *, stored: bool = False) -> Path:
    """A one-sheet workbook from its worksheet and shared-strings XML."""
    import zipfile

    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", method) as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WB)
        z.writestr("xl/_rels/workbook.xml.rels", _WB_RELS)
        z.writestr("xl/worksheets/sheet1.xml", sheet)
        z.writestr("xl/sharedStrings.xml", strings)
    return path

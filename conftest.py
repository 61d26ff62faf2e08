"""Every notebook in `nbs/` is one pytest item, run top to bottom in a real Jupyter kernel (nbclient, `python3`), as a
reader's Run All runs it.

Cells flagged with a test flag from `settings.ini` (`tst_flags`, e.g. `#| slow`) are skipped unless `--flags slow`
(or the environment variable `AERIAL_NB_TEST_FLAGS="slow"`) asks for them; `#| eval: false` cells never run. Like
nbdev's runner, the closing `nbdev_export()` cell does not run either: it would rewrite the library under the tests.
The kernel imports aerial_nb from this checkout first, and draws with Jupyter's inline matplotlib backend even when
`MPLBACKEND` is set for the command line tools. Under pytest-xdist (`-n N`) each worker's kernels get the machine's
cores divided among the workers as their BLAS/OpenMP threads (unless the environment sets them): N workers each
running PyTorch and NumPy on every core would oversubscribe the machine and slow every test down.
Each kernel gets a temporary folder of its own as `TMPDIR`: a notebook that leaves a file there (or a process it
started does) fails, so that running the tests never fills the machine's temporary folder.
Files run longest first, by the seconds each took when last measured (`tests/durations.json`, written by a run with
`--store-durations`, quick and `--flags slow` apart), so that under `-n 2` the two longest go to different workers.
"""
import json, os, re, shutil, sys, tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent

CACHES = ('torchinductor_', 'dask-scratch-space')   # libraries' own (PyTorch's optimisers', Dask's workers'): reused, not ours


def pytest_addoption(parser):
    parser.addoption('--flags', default=os.environ.get('AERIAL_NB_TEST_FLAGS', ''),
                     help='space separated test flags whose cells run too (e.g. "slow")')
    parser.addoption('--store-durations', action='store_true',
                     help=f'record how long each file took in {DURATIONS.relative_to(ROOT)} (the order files run in)')


def pytest_configure(config):
    "Under `-n N`, a worker (and the kernels and processes it starts) uses its share of the cores, not all of them."
    workers = int(os.environ.get('PYTEST_XDIST_WORKER_COUNT', '1'))
    if workers > 1:
        share = str(max(1, (os.cpu_count() or 1) // workers))
        for name in ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'): os.environ.setdefault(name, share)


def pytest_sessionstart(session):
    "The `python3` kernel must run this Python (as a bare `python` does): another would test another environment."
    from jupyter_client.kernelspec import KernelSpecManager
    spec = KernelSpecManager().get_kernel_spec('python3')
    exe, own = spec.argv[0], {'python', f'python{sys.version_info[0]}', 'python%i.%i' % sys.version_info[:2]}
    if exe not in own and Path(shutil.which(exe) or exe).resolve() != Path(sys.executable).resolve():
        fix = f'{sys.executable} -m ipykernel install --user'
        raise pytest.UsageError(f'the python3 kernel in {spec.resource_dir} runs {exe}, not {sys.executable};'
                                f' to replace it: {fix}')


def pytest_collect_file(parent, file_path):
    nbs = ROOT/'nbs'
    if (file_path.suffix == '.ipynb' and file_path.parent in (nbs, nbs/'studies')
            and not file_path.name.startswith('_')):
        return NotebookFile.from_parent(parent, path=file_path)


def _flags(config) -> tuple:
    "Test flags whose cells are skipped (settings.ini's `tst_flags` less `--flags`), and those forced to run."
    from nbdev.config import get_config
    flags, forced = set(get_config(path=ROOT).tst_flags.split()), set(config.getoption('--flags').split())
    return flags - forced, flags & forced


def _directives(cell) -> dict:
    from nbdev.process import extract_directives
    return extract_directives(cell, remove=False)


def _runs(cell, skip: set) -> bool:
    "Whether nbdev's runner would run `cell`: code, not `#| eval: false`, no skipped flag, not `nbdev_export()`."
    if cell.cell_type != 'code' or 'nbdev_export(' in cell.source: return False
    d = _directives(cell)
    return d.get('eval:', [''])[0].lower() != 'false' and not skip & d.keys()


DURATIONS = ROOT/'tests'/'durations.json'   # seconds each file took, quick and with the slow cells (`--store-durations`)
CELL_S, FLAGGED_S, MODULE_S = 0.3, 25, 40     # a file not measured yet: its cells, a flagged cell's paper-scale work, a module


def _mode(forced: set) -> str: return 'slow' if forced else 'quick'


def _estimate(path: Path, skip: set, forced: set) -> float:
    "Seconds a notebook not measured yet may take: its code cells that run, a cell of a forced test flag as `FLAGGED_S`."
    import nbformat
    cells = [c for c in nbformat.read(path, as_version=4).cells if _runs(c, skip)]
    return sum(FLAGGED_S if _directives(c).keys() & forced else CELL_S for c in cells)


def pytest_collection_modifyitems(config, items):
    ("Files longest first, by the seconds each took when last measured (`DURATIONS`; else an estimate): under `-n 2` "
     "each worker starts on one of the longest, and the short ones fill in at the end. (A worker always holds the file "
     "after the one it runs: were the two longest handed out first to one worker, they would run one after the other.)")
    skip, forced = _flags(config)
    known = json.loads(DURATIONS.read_text()).get(_mode(forced), {}) if DURATIONS.exists() else {}
    def seconds(item) -> float:
        name = item.path.relative_to(ROOT).as_posix()
        if name in known: return known[name]
        return _estimate(item.path, skip, forced) if isinstance(item, NotebookItem) else MODULE_S
    cost = {}
    for i in items: cost.setdefault(i.path, seconds(i))
    items.sort(key=lambda i: (cost[i.path], str(i.path)), reverse=True)        # a module's tests stay together


_TIMES = {}   # file -> seconds its tests took in this run (setup, call and teardown)

def pytest_runtest_logreport(report):
    _TIMES[report.nodeid.split('::')[0]] = _TIMES.get(report.nodeid.split('::')[0], 0.0) + report.duration


def pytest_sessionfinish(session, exitstatus):
    "With `--store-durations`, after a run that passed: each file's seconds into `DURATIONS`, for the next run's order."
    config = session.config
    if not config.getoption('--store-durations') or hasattr(config, 'workerinput') or exitstatus != 0: return
    data = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    data[_mode(_flags(config)[1])] = {k: round(v, 1) for k, v in sorted(_TIMES.items())}
    DURATIONS.write_text(json.dumps(data, indent=1) + '\n')


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    "Under pytest-xdist (`-n`), hand out whole files in collection order: the longest go to different workers."
    from xdist.scheduler import LoadScopeScheduling
    config.option.loadscopereorder = False    # xdist would otherwise put the file with the most tests first
    return LoadScopeScheduling(config, log)


def _kernel_env() -> dict:
    "The kernel's environment: this checkout first on `PYTHONPATH`, no `MPLBACKEND` (Jupyter picks its inline backend)."
    env = {k: v for k, v in os.environ.items() if k != 'MPLBACKEND'}
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get('PYTHONPATH')] if p])
    return env


class NotebookFile(pytest.File):
    def collect(self):
        yield NotebookItem.from_parent(self, name=self.path.stem)


class NotebookItem(pytest.Item):
    def runtest(self):
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
        nb = nbformat.read(self.path, as_version=4)
        skip, _ = _flags(self.config)
        client = NotebookClient(nb, timeout=None, kernel_name='python3',
                                resources={'metadata': {'path': str(self.path.parent)}})     # the kernel starts in nbs/
        tmp = Path(tempfile.mkdtemp(prefix=f'aerial-nb-{self.path.stem}-'))   # the kernel's TMPDIR, checked after
        try:
            with client.setup_kernel(env=dict(_kernel_env(), TMPDIR=str(tmp))):
                for i, cell in enumerate(nb.cells):
                    if not _runs(cell, skip): continue
                    try: client.execute_cell(cell, i)
                    except CellExecutionError as e: raise CellFailed(self.path, i, cell, e) from None
            left = sorted(p.name for p in tmp.iterdir() if not p.name.startswith(CACHES))
            if left: raise LeftBehind(self.path, left)
        finally: shutil.rmtree(tmp, ignore_errors=True)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, (CellFailed, LeftBehind)): return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self): return self.path, 0, f'notebook {self.path.name}'


class CellFailed(Exception):
    "A notebook cell raised: which cell, then nbclient's report of it (the cell's source and the kernel's traceback)."
    def __init__(self, path: Path, index: int, cell, error):
        report = re.sub(r'\x1b\[[0-9;]*m', '', str(error))             # the kernel colours its tracebacks
        super().__init__(f'{path.name}: cell {index} (id {cell.get("id", "?")}) raised {error.ename}\n{report}')


class LeftBehind(Exception):
    "A notebook ran to the end but left files in the temporary folder: a test must remove what it writes."
    def __init__(self, path: Path, left: list):
        super().__init__(f'{path.name} left files in its temporary folder: {", ".join(left[:10])}'
                         + (f' and {len(left) - 10} more' if len(left) > 10 else ''))

"""Every notebook in `nbs/` is one pytest item, run by nbdev's own notebook runner.

Cells flagged with a test flag from `settings.ini` (`tst_flags`, e.g. `#| slow`) are skipped unless
`--flags slow` (or the environment variable `AERIAL_NB_TEST_FLAGS="slow"`) asks for them;
`#| eval: false` cells never run.
"""
import json, os
from pathlib import Path

import pytest

ROOT = Path(__file__).parent


def pytest_addoption(parser):
    parser.addoption('--flags', default=os.environ.get('AERIAL_NB_TEST_FLAGS', ''),
                     help='space separated test flags whose cells run too (e.g. "slow")')


def pytest_collect_file(parent, file_path):
    if file_path.suffix == '.ipynb' and file_path.parent.name == 'nbs' and not file_path.name.startswith('_'):
        return NotebookFile.from_parent(parent, path=file_path)


def _flagged_cells(path: Path, flags: list) -> int:
    "How many code cells of a notebook carry one of `flags` (e.g. `#| slow`)."
    cells = json.loads(path.read_text(encoding='utf-8'))['cells']
    return sum(c['cell_type'] == 'code' and any(f'#| {f}' in ''.join(c['source']) for f in flags) for c in cells)


def pytest_collection_modifyitems(config, items):
    "With forced flags, the notebooks with the most flagged cells come first: under `-n 2` the two longest start at once."
    flags = config.getoption('--flags').split()
    if flags: items.sort(key=lambda i: _flagged_cells(i.path, flags) if isinstance(i, NotebookItem) else 0, reverse=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    "Under pytest-xdist (`-n`), hand out whole files in collection order, so the longest notebooks go to different workers."
    from xdist.scheduler import LoadScopeScheduling
    config.option.loadscopereorder = False    # xdist would otherwise put the file with the most tests first
    return LoadScopeScheduling(config, log)


class NotebookFile(pytest.File):
    def collect(self):
        yield NotebookItem.from_parent(self, name=self.path.stem)


class NotebookItem(pytest.Item):
    def runtest(self):
        from nbdev.config import get_config
        from nbdev.test import test_nb
        skip = get_config(path=ROOT).tst_flags.split()
        force = self.config.getoption('--flags').split()
        ok, _ = test_nb(self.path.absolute(), skip_flags=skip, force_flags=force, basepath=ROOT)
        if not ok: raise NotebookFailed(self.path.name)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, NotebookFailed):
            return f'{excinfo.value.args[0]} failed: see the traceback in the captured stderr above'
        return super().repr_failure(excinfo)

    def reportinfo(self): return self.path, 0, f'notebook {self.path.name}'


class NotebookFailed(Exception): pass

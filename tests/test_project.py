"Project-level checks: the library is exactly what the notebooks export, notebooks are clean, docs preprocess."
import filecmp, json, re, shutil, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT/'tools'))      # tools/readme.py
SRC = ['settings.ini', 'setup.py', 'nbs', 'aerial_nb']


@pytest.fixture(scope='module')
def copy(tmp_path_factory):
    "A scratch copy of the project, so the checks never touch the working tree."
    dst = tmp_path_factory.mktemp('proj')
    for name in SRC:
        src = ROOT/name
        if src.is_dir(): shutil.copytree(src, dst/name, ignore=shutil.ignore_patterns('__pycache__', '_proc', '.ipynb_checkpoints'))
        else: shutil.copy(src, dst/name)
    return dst


def _run(cmd, cwd):
    return subprocess.run([sys.executable, '-c', f'from nbdev.{cmd[0]} import {cmd[1]}; {cmd[1]}()'],
                          cwd=cwd, capture_output=True, text=True, check=True)


def _diff(a: Path, b: Path, pattern: str):
    "Names of files matching `pattern` that differ or exist on one side only."
    names = {p.relative_to(a) for p in a.glob(pattern)} | {p.relative_to(b) for p in b.glob(pattern)}
    return sorted(str(n) for n in names if not ((a/n).exists() and (b/n).exists() and filecmp.cmp(a/n, b/n, shallow=False)))


def test_export_reproduces_library(copy):
    shutil.rmtree(copy/'aerial_nb')
    _run(('doclinks', 'nbdev_export'), copy)
    assert _diff(ROOT/'aerial_nb', copy/'aerial_nb', '**/*.py') == [], 'run nbdev_export: aerial_nb/ is out of sync with nbs/'


def test_notebooks_are_clean(copy):
    _run(('clean', 'nbdev_clean'), copy)
    assert _diff(ROOT/'nbs', copy/'nbs', '**/*.ipynb') == [], 'run nbdev_clean: these notebooks are not clean'


def test_notebooks_name_their_kernel():
    "Every notebook opens in the `python3` kernel the test suite runs it in, with no kernel to choose first."
    for nb in sorted((ROOT/'nbs').rglob('*.ipynb')):
        spec = json.loads(nb.read_text(encoding='utf-8'))['metadata'].get('kernelspec', {})
        assert (spec.get('name'), spec.get('language')) == ('python3', 'python'), f'{nb.name} has no python3 kernelspec'


def test_docs_preprocess(copy):
    "nbdev's docs preprocessing (what `nbdev_docs` hands to Quarto) runs offline on every notebook."
    # `proc_nbs` itself, not `nbdev_proc_nbs`: the latter tries to download and install Quarto first.
    subprocess.run([sys.executable, '-c', 'from nbdev.quarto import nbdev_sidebar, refresh_quarto_yml, proc_nbs; '
                    'refresh_quarto_yml(); nbdev_sidebar(); proc_nbs(n_workers=0)'],
                   cwd=copy, capture_output=True, text=True, check=True)
    proc = copy/'_proc'
    nbs = sorted(str(p.relative_to(ROOT/'nbs')) for p in (ROOT/'nbs').rglob('*.ipynb'))
    assert nbs and all((proc/n).exists() for n in nbs)
    assert (proc/'_quarto.yml').exists() and (proc/'sidebar.yml').exists()


def test_readme_is_index():
    "README.md is generated from nbs/index.ipynb (`python tools/readme.py`), never edited apart from it."
    from readme import render
    text, images = render()
    assert (ROOT/'README.md').read_text(encoding='utf-8') == text, 'run python tools/readme.py'
    assert images and all((ROOT/name).read_bytes() == png for name, png in images.items()), 'run python tools/readme.py'


def test_readme_links_into_nbs():
    "Links between notebooks (pages on the site) point into nbs/ from the README, and every relative link there resolves."
    from readme import relink
    md = '[a](07_extraction.ipynb), [b](00_tour.ipynb#try-it), ![c](images/x.png), [d](https://x.org/e.ipynb), [f](#top)'
    assert relink(md, 'nbs') == ('[a](nbs/07_extraction.ipynb), [b](nbs/00_tour.ipynb#try-it), ![c](nbs/images/x.png), '
                                 '[d](https://x.org/e.ipynb), [f](#top)')
    links = re.findall(r'\]\((?![a-zA-Z][\w+.-]*:|#)([^)#\s]+)', (ROOT/'README.md').read_text(encoding='utf-8'))
    assert 'nbs/07_extraction.ipynb' in links and [l for l in links if not (ROOT/l).is_file()] == []


def _classes():
    "(module name, class name, class) of every public class aerial_nb defines."
    import importlib, inspect, pkgutil
    sys.path.insert(0, str(ROOT))
    import aerial_nb
    for info in pkgutil.walk_packages(aerial_nb.__path__, 'aerial_nb.'):
        if info.name.endswith('._modidx'): continue
        mod = importlib.import_module(info.name)
        for name, cls in vars(mod).items():
            if inspect.isclass(cls) and cls.__module__ == mod.__name__ and not name.startswith('_'): yield mod.__name__, name, cls


def test_methods_are_indexed():
    "Every public method and property has its entry in nbdev's index: none is attached by assignment (use fastcore's `@patch`)."
    import inspect
    from aerial_nb._modidx import d
    syms = {k for m in d['syms'].values() for k in m}
    assert {'aerial_nb.encoding.Encoder.fit', 'aerial_nb.encoding.Encoder.transform', 'aerial_nb.quality.Rules.to_frame'} <= syms
    methods = [f'{m}.{c}.{name}' for m, c, cls in _classes() for name, v in vars(cls).items()
               if not name.startswith('_') and (inspect.isfunction(v) or isinstance(v, (classmethod, staticmethod, property)))]
    assert len(methods) > 20 and [m for m in methods if m not in syms] == []


def _imports(path: Path):
    "(module imported, names imported from it) for every import in a module of aerial_nb, relative ones resolved."
    import ast
    package = '.'.join(path.relative_to(ROOT).with_suffix('').parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.Import): yield from ((a.name, []) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split('.')[:len(package.split('.')) - node.level + 1] if node.level else []
            yield '.'.join(base + ([node.module] if node.module else [])), [a.name for a in node.names]


def _modules(): return sorted(p for p in (ROOT/'aerial_nb').rglob('*.py') if p.name != '_modidx.py')


def test_core_stands_alone():
    "No module of the core imports the studies, nor names them for a dynamic import: `bench` reaches the CLI by entry point."
    core = [p for p in _modules() if 'studies' not in p.parts]
    assert len(core) >= 12 and ROOT/'aerial_nb'/'cli.py' in core
    bad = {p.name: m for p in core for m, names in _imports(p)
           if m.startswith('aerial_nb.studies') or (m == 'aerial_nb' and 'studies' in names)}
    assert bad == {}
    assert [p.name for p in core if 'aerial_nb.studies' in p.read_text()] == []


def test_no_private_name_crosses_a_module():
    "No module imports an underscore name from another module of aerial_nb: what two modules share is public."
    bad = [(p.name, m, n) for p in _modules() for m, names in _imports(p) if m.startswith('aerial_nb') for n in names if n.startswith('_')]
    assert bad == []


def test_pyflakes_finds_nothing():
    "No unused import or name, no undefined name, in the library."
    pytest.importorskip('pyflakes')
    r = subprocess.run([sys.executable, '-m', 'pyflakes', 'aerial_nb'], cwd=ROOT, capture_output=True, text=True)
    assert (r.stdout + r.stderr).strip() == ''


def test_uci_tables_come_with_the_package(tmp_path):
    "On a user's machine (no copy beside the clone, no AERIAL_NB_DATA, any folder) the ten UCI tables load offline."
    import os
    env = {k: v for k, v in os.environ.items() if k != 'AERIAL_NB_DATA'}
    env['PYTHONPATH'] = str(ROOT)
    code = ('from aerial_nb.encoding import UCI_DATASETS, load_uci\n'
            'print(sum(len(load_uci(n)) for n in UCI_DATASETS))')
    r = subprocess.run([sys.executable, '-c', code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == 286 + 435 + 8124 + 3196 + 4601 + 267 + 47 + 148 + 132 + 625


def test_package_data_ships_every_table():
    "setup.py's package_data takes every file of aerial_nb/data, and MANIFEST.in puts them in the source archive."
    import fnmatch
    text = (ROOT/'setup.py').read_text(encoding='utf-8')
    patterns = re.search(r"package_data=\{cfg\['lib_name'\]: \[([^\]]*)\]", text).group(1)
    patterns = re.findall(r"'([^']+)'", patterns)
    files = [p.relative_to(ROOT/'aerial_nb').as_posix() for p in (ROOT/'aerial_nb'/'data').rglob('*') if p.is_file()]
    assert len(files) == 18 and [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)] == []
    assert 'recursive-include aerial_nb/data *' in (ROOT/'MANIFEST.in').read_text(encoding='utf-8')


def test_no_notebook_types_a_path_outside_the_project():
    "A clone alone runs every notebook: none names a folder beside the project or sets the data variable."
    bad = [nb.name for nb in (ROOT/'nbs').rglob('*.ipynb')
           if re.search(r"\.\./\.\.|shared/data|environ\.setdefault\('AERIAL_NB_DATA'", nb.read_text(encoding='utf-8'))]
    assert bad == []


def test_face_does_not_import_torch():
    "`import aerial_nb`, the torch-free names of its face and mining a small table (counted) leave PyTorch unimported; `train` brings it."
    code = ('import sys, aerial_nb\n'
            'from aerial_nb import encode, load_uci, rule_metrics, mine\n'
            'print("torch" in sys.modules, mine.__module__)\n'
            'mine("demo")\n'
            'print("torch" in sys.modules)\n'
            'from aerial_nb import train\n'
            'print("torch" in sys.modules, train.__module__)')
    r = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert r.stdout.split() == ['False', 'aerial_nb.mining', 'False', 'True', 'aerial_nb.autoencoder']


def _top_imports(path: Path):
    "The modules `path` imports when it is imported: statements at its top level (not inside functions, nor for annotations)."
    import ast
    package = '.'.join(path.relative_to(ROOT).with_suffix('').parts[:-1])
    for node in ast.parse(path.read_text(encoding='utf-8')).body:
        if isinstance(node, ast.Import): yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split('.')[:len(package.split('.')) - node.level + 1] if node.level else []
            yield '.'.join(base + ([node.module] if node.module else []))


def _chapters():
    "The notebooks of the book, in reading order: the chapters of nbs/, then the studies of nbs/studies/."
    return [*sorted((ROOT/'nbs').glob('[0-9]*.ipynb')), *sorted((ROOT/'nbs'/'studies').glob('[0-9]*.ipynb'))]


def _module_of(nb: Path) -> str:
    src = json.loads(nb.read_text(encoding='utf-8'))['cells'][0]['source']
    return re.search(r'default_exp (\S+)', ''.join(src))[1]


def test_the_book_reads_in_dependency_order():
    """The tour comes first; past it, a chapter's module imports only modules of earlier chapters when it is imported
    (an optional extra such as Dask is imported where it is used; the tour shows the whole package, so its widgets may
    use any chapter); the index lists the chapters in the files' order; the sidebar's sections are the folders."""
    chapters = _chapters()
    assert chapters[0].name == '00_tour.ipynb' and chapters[-1].parent.name == 'studies'
    mods = [_module_of(nb) for nb in chapters]
    seen, late = set(), []
    for nb, mod in zip(chapters[1:], mods[1:]):
        path = ROOT/'aerial_nb'/(mod.replace('.', '/') + '.py')
        for m in _top_imports(path):
            name = m.removeprefix('aerial_nb.')
            if m.startswith('aerial_nb.') and name in mods and name not in seen | {mod}: late.append((nb.name, name))
        seen.add(mod)
    assert late == []
    index = json.loads((ROOT/'nbs'/'index.ipynb').read_text(encoding='utf-8'))
    book = next(''.join(c['source']) for c in index['cells'] if ''.join(c['source']).startswith('## The chapters'))
    listed = re.findall(r'\]\(((?:studies/)?\d\d_\w+\.ipynb)\)', book)
    listed = list(dict.fromkeys(listed))
    assert listed == [str(nb.relative_to(ROOT/'nbs')) for nb in chapters]
    assert not (ROOT/'nbs'/'sidebar.yml').exists() or 'sidebar.yml' in (ROOT/'.gitignore').read_text()
    assert 'custom_sidebar = False' in (ROOT/'settings.ini').read_text()


def test_cli_stays_thin():
    "The command line only parses and reports; the work is the library's, so cli.py stays within 450 lines."
    lines = len((ROOT/'aerial_nb'/'cli.py').read_text(encoding='utf-8').splitlines())
    assert lines <= 450, f'aerial_nb/cli.py has {lines} lines: move the work into the library'


def test_readme_imports_from_the_face():
    "The README's examples import what they use from the package's face (`from aerial_nb import ...`), never from a module."
    code = '\n'.join(re.findall(r'```python\n(.*?)```', (ROOT/'README.md').read_text(encoding='utf-8'), re.S))
    assert 'from aerial_nb import' in code and re.findall(r'^\s*(?:from|import) aerial_nb\.\S+', code, re.M) == []


def test_signature_comments_reach_the_docs():
    ("A parameter's comment is the one on its line (fastcore's `docments`, which the docs and the command line's help "
     "read): a comment alone on a line of a signature is lost, so none is written; `mine`'s thresholds are documented.")
    import ast
    lost = []
    for p in _modules():
        lines = p.read_text(encoding='utf-8').splitlines()
        for f in ast.walk(ast.parse('\n'.join(lines))):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not f.name.startswith('_'):
                lost += [f'{p.name}:{i + 1} ({f.name})' for i in range(f.lineno, f.body[0].lineno - 1)
                         if lines[i].lstrip().startswith('#')]
    assert lost == []
    from fastcore.docments import docments
    from aerial_nb import mine
    from aerial_nb.quality import check_thresholds
    d, th = docments(mine), docments(check_thresholds)
    assert [k for k in d if k not in ('kwargs', 'return') and not d[k]] == []
    assert all(d[k] == th[k] for k in th if k != 'return')

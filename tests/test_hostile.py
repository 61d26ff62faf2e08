"""Hostile input: bad files, option values, outputs, saved models and Python arguments.

Every case is checked mechanically, the way a careful command-line tool is judged: a refusal exits 2
with one line on stderr that names the file or the option and the cause, never a traceback; every input
file is byte-identical afterwards; a refused run leaves no output behind. A case that is not refused
must do what was asked (checked where it says so). The cases are generated: every option of every
command with values of the wrong kind or range, every field of a saved model edited at random
(hypothesis), random bytes as a table, random Parquet schemas, every public mining function's
parameters with wrong types and values.
"""
import bz2, contextlib, gzip, hashlib, io, json, lzma, math, random, re, shutil, warnings, zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from aerial_nb.cli import build_parser, main
from aerial_nb.datasets import weather_beverage
from aerial_nb.persist import InputError, load_model

FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def run(*argv) -> tuple:
    "Run `aerial-nb ARGV` in this process: (exit code, stdout, stderr)."
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def digest(folder: Path) -> dict:
    "Every file under `folder` and its SHA-256: what a run must leave as it found it (when it is refused)."
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob('*')) if p.is_file()}


def refused(code: int, err: str, *names: str):
    "Exit 2, one line on stderr naming every one of `names`, no traceback."
    assert code == 2, (code, err)
    assert 'Traceback' not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert all(n in lines[0] for n in names), (names, lines[0])


@pytest.fixture(scope='module')
def place(tmp_path_factory) -> Path:
    "A folder holding the weather table as CSV and Parquet, and a model trained on it."
    from aerial_nb.autoencoder import train
    from aerial_nb.encoding import encode
    from aerial_nb.persist import save_model
    d = tmp_path_factory.mktemp('hostile')
    df = weather_beverage()
    df.to_csv(d/'t.csv', index=False); df.to_parquet(d/'t.parquet')
    enc, X = encode(df)
    save_model(train(X, enc, progress=False, seed=0), d/'model')
    return d


# ---------------------------------------------------------------- files that are not what their name says

def _files(d: Path) -> dict:
    "Hostile tables: name -> (bytes, what the refusal must say besides the file's name; None: it must be read right)."
    csv = weather_beverage().to_csv(index=False).encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as z: z.writestr('t.csv', csv)
    two = io.BytesIO()
    with zipfile.ZipFile(two, 'w') as z: z.writestr('a.csv', csv); z.writestr('b.csv', csv)
    pq = io.BytesIO(); weather_beverage().to_parquet(pq)
    return {'gz.csv.gz': (gzip.compress(csv), None), 'bz.csv.bz2': (bz2.compress(csv), None),
            'xz.csv.xz': (lzma.compress(csv), None), 'zip.csv.zip': (buf.getvalue(), None),
            'two.zip': (two.getvalue(), 'zip'), 'utf16.csv': ('a,b\nx,y\n'.encode('utf-16'), 'UTF-16'),
            'latin1.csv': ('a,b\ncafé,x\nthé,y\n'.encode('latin-1'), 'UTF-8'),
            'parquet.csv': (pq.getvalue(), 'Parquet'), 'table.json': (b'{"a": {"0": 1}}', 'JSON'),
            'empty.csv': (b'', 'empty'), 'header.csv': (b'a,b\n', 'no rows'),
            'nul.csv': (b'a,b\n\x00\x00,\x00\n', ''), 'binary.csv': (bytes(range(256)) * 4, ''),
            'ragged.csv': (b'a,b\n1,2,3,4\n5\n', 'line 2 has 4 fields'), 'quote.csv': (b'a,b\n"x,y\n', ''),
            'ragged1.csv': (b'weather,beverage\ncold,tea,1\nwarm,soda,2\ncold,tea,3\n', 'line 2 has 3 fields'),
            'comma.csv': (b'weather,beverage\ncold,tea,\nwarm,soda,\n', 'line 2 has 3 fields'),
            'ragged_late.csv': (b'a,b\n' + b'x,1\ny,2\n' * 500 + b'z,3,4\n', 'line 1,002 has 3 fields'),
            'stray.csv': (b'x,y\n' + b''.join(b'%s,%s\n' % (b'oops' if i == 137 else b'%d' % i, b'ab'[i % 2:][:1])
                                               for i in range(300)), "column 'x' holds numbers, but row 138"),
            'latin1_late.csv': (b'a,b\n' + b'x,1\ny,2\n' * 150_000 + 'Zürich,2\n'.encode('latin-1'), 'line 300,002 holds the byte 0xfc'),
            'dupe.csv': (b'a,a\nx,y\nz,w\n', 'a'), 'onecol.csv': (b'a\nx\ny\n', ''),
            'xlsx.xlsx': (buf.getvalue(), ''), 'bigcell.csv': (b'a,' + b'b' * 200_000 + b'\n1,2\n', '')}


FILES = list(_files(Path('.')))
# files that must be refused (read, they would give wrong rules: columns shifted, a cell dropped or misread)
REFUSED = {'ragged.csv', 'ragged1.csv', 'comma.csv', 'ragged_late.csv', 'stray.csv', 'latin1_late.csv'}
COMMANDS = (('mine', '--quiet'), ('itemsets', '--quiet'), ('info', '--quiet'))


@pytest.mark.parametrize('name', FILES)
@pytest.mark.parametrize('command', COMMANDS, ids=lambda c: c[0])
def test_hostile_files(place, tmp_path, name, command):
    data, says = _files(tmp_path)[name]
    (tmp_path/name).write_bytes(data)
    before = digest(tmp_path)
    code, out, err = run(command[0], tmp_path/name, command[1])
    assert digest(tmp_path) == before                                  # the input untouched, nothing written beside it
    if says is None:                                                   # compressed CSV is read as the CSV inside
        assert code == 0, err
        plain = run(command[0], place/'t.csv', command[1], '--json')[1]
        assert json.loads(run(command[0], tmp_path/name, command[1], '--json')[1]).get('rules') == json.loads(plain).get('rules')
    elif code != 0 or name in REFUSED: refused(code, err, name, says)
    else: assert 'Traceback' not in err, err                          # a table it can read is read without a crash


@FAST
@given(st.binary(min_size=1, max_size=400))
def test_random_bytes_as_a_table(tmp_path_factory, data):
    d = tmp_path_factory.mktemp('bytes'); (d/'t.csv').write_bytes(data)
    code, out, err = run('mine', d/'t.csv', '--quiet')
    assert (d/'t.csv').read_bytes() == data and [p.name for p in d.iterdir()] == ['t.csv']
    if code: refused(code, err, 't.csv')


# ---------------------------------------------------------------- option values of the wrong kind or range

def _options() -> list:
    "(command, option, kind) of every option that takes a number."
    ap, out = build_parser(), []
    for command, sp in ap._subparsers._group_actions[0].choices.items():
        for a in sp._actions:
            kind = getattr(a.type, '__name__', '')
            if a.option_strings and kind in ('whole', 'number'): out.append((command, a.option_strings[-1], kind))
    return out


BAD = ['abc', 'nan', 'NaN', 'inf', '-inf', '1e400', '', ' ', '0x10', '1,5', '--', '99999999999999999999999', '-99999999999999999999']
WHOLE_BAD = ['1.5', '-1', '2e0 ']
NUMBER_BAD = ['-1', '2', '-0.5', '1e-400x']
UNBOUNDED = {'--min-lift', '--budget'}                              # numbers with no upper end of 1 (a lift of 2 is fine)
# 'at most N': any N is meaningful (a lift no table can reach is refused)
LIMITS = {'--max-distinct', '--max-codes', '--max-categories', '--top-k', '--sample-rows', '--budget'}


def _argv(command: str, place: Path, option: str, value: str) -> list:
    base = {'mine': ['mine', place/'t.csv', '--quiet'], 'itemsets': ['itemsets', place/'t.csv', '--quiet'],
            'info': ['info', place/'t.csv', '--quiet'], 'verify': ['verify', place/'model', '--data', place/'t.csv', '--antecedent', 'weather=warm',
                       '--consequent', 'beverage=soda'],
            'bench': ['bench', 'trust', '--datasets', 'no-such-table', '--results', place/'no-results']}[command]
    return base + [f'{option}={value}']


CASES = [(c, o, v) for c, o, k in _options()
         for v in BAD + (WHOLE_BAD if k == 'whole' else NUMBER_BAD)
         if not (o in UNBOUNDED and v == '2')
         and not (o in LIMITS and v == '99999999999999999999999')]


@pytest.mark.parametrize('command,option,value', CASES)
def test_bad_option_values(place, command, option, value):
    before = digest(place)
    code, out, err = run(*_argv(command, place, option, value))
    refused(code, err, option)
    assert digest(place) == before


def test_the_battery_is_large():
    "At least 600 hostile cases, counted over the generated families."
    hypothesis = [f for f in globals().values() if callable(f) and hasattr(f, 'hypothesis')]   # each runs FAST.max_examples cases
    assert len(hypothesis) == 4, hypothesis
    n = (len(CASES) + len(FILES) * len(COMMANDS) + len(hypothesis) * FAST.max_examples + len(OUTPUTS) + len(EMPTY) + len(API)
         + len(MORE_API))
    assert n >= 600, n


# ---------------------------------------------------------------- outputs

OUTPUTS = [('--out', '', "--out is empty"), ('--save-model', '', '--save-model'), ('--out', '{d}', '--out'),
           ('--out', '{d}/nowhere/r.csv', '--out'), ('--out', '{d}/t.csv', '--out'), ('--save-model', '{d}/t.csv', '--save-model'),
           ('--save-model', '{d}', '--save-model'), ('--out', '{d}/r.txt', '--out')]


@pytest.mark.parametrize('option,value,says', OUTPUTS)
def test_bad_outputs(tmp_path, option, value, says):
    weather_beverage().to_csv(tmp_path/'t.csv', index=False)
    before = digest(tmp_path)
    code, out, err = run('mine', tmp_path/'t.csv', '--quiet', option, value.format(d=tmp_path))
    refused(code, err, says)
    assert digest(tmp_path) == before                               # nothing written, nothing lost


EMPTY = [(('mine', '{t}', '--quiet', '--dask', ''), '--dask'), (('itemsets', '{t}', '--quiet', '--dask', ' '), '--dask'),
         (('mine', '{t}', '--quiet', '--baskets', ''), '--baskets'), (('itemsets', '{t}', '--quiet', '--baskets', ''), '--baskets'),
         (('verify', '', '--antecedent', 'weather=warm', '--consequent', 'beverage=soda'), 'the model path'),
         (('info', ''), 'the data path'), (('mine', '', '--quiet'), 'the data path')]


@pytest.mark.parametrize('argv,says', EMPTY)
def test_empty_values(place, argv, says):
    "An empty value (an unset shell variable) is refused naming the argument, never taken as 'not given'."
    before = digest(place)
    code, out, err = run(*[str(a).format(t=place/'t.csv') for a in argv])
    refused(code, err, says)
    assert digest(place) == before


@pytest.mark.parametrize('option', ['--out', '--save-model'])
@pytest.mark.parametrize('how', ['removed', 'replaced by a file'])
def test_output_folder_removed_during_the_run(tmp_path, monkeypatch, option, how):
    "The folder an output goes into is removed (or becomes a file) while the table is mined: one line, nothing left over."
    from aerial_nb.persist import Outputs
    weather_beverage().to_csv(tmp_path/'t.csv', index=False)
    (tmp_path/'gone').mkdir()
    target = tmp_path/'gone'/('r.csv' if option == '--out' else 'm')
    real = Outputs.stage
    def removed_first(self, *args, **kwargs):                        # the table is mined: the folder goes
        shutil.rmtree(tmp_path/'gone')
        if how == 'replaced by a file': (tmp_path/'gone').write_text('')
        return real(self, *args, **kwargs)
    monkeypatch.setattr(Outputs, 'stage', removed_first)
    code, out, err = run('mine', tmp_path/'t.csv', '--quiet', option, target)
    refused(code, err, str(target))
    assert sorted(p.name for p in tmp_path.iterdir()) == (['t.csv'] if how == 'removed' else ['gone', 't.csv'])


def test_model_and_rules_in_one_place(tmp_path):
    weather_beverage().to_csv(tmp_path/'t.csv', index=False)
    code, out, err = run('mine', tmp_path/'t.csv', '--quiet', '--save-model', tmp_path/'x', '--out', tmp_path/'x')
    refused(code, err, '--out'); assert not (tmp_path/'x').exists()


# ---------------------------------------------------------------- saved models edited by hand

def _leaves(o, path=()):
    "Every (path, value) leaf of a JSON document."
    if isinstance(o, dict):
        for k, v in o.items(): yield from _leaves(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o): yield from _leaves(v, path + (i,))
    else: yield path, o


def _set(o, path, v):
    for k in path[:-1]: o = o[k]
    o[path[-1]] = v


JSONISH = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=False),
                    st.text(max_size=8), st.lists(st.integers(), max_size=3))


@FAST
@given(st.data())
def test_edited_model_json_is_refused(place, tmp_path_factory, data):
    d = tmp_path_factory.mktemp('model'); shutil.copytree(place/'model', d/'m')
    meta = json.loads((d/'m'/'model.json').read_text())
    leaves = list(_leaves(meta))
    path, old = data.draw(st.sampled_from(leaves))
    new = data.draw(JSONISH.filter(lambda v: v != old or type(v) is not type(old)))
    _set(meta, path, new)
    (d/'m'/'model.json').write_text(json.dumps(meta))
    before = digest(d)
    with pytest.raises(InputError) as e: load_model(d/'m')
    assert str(d/'m') in str(e.value) and '\n' not in str(e.value)
    assert digest(d) == before


@FAST
@given(st.integers(0, 10**6), st.sampled_from(['swap', 'rename', 'version']))
def test_edits_that_keep_the_shapes(place, tmp_path_factory, seed, how):
    "Swapped or renamed category labels and an edited version number keep every shape: the checksum refuses them."
    d = tmp_path_factory.mktemp('model'); shutil.copytree(place/'model', d/'m')
    meta = json.loads((d/'m'/'model.json').read_text())
    rng = random.Random(seed)
    lists = [(p, v) for p, v in _leaves(meta) if isinstance(v, str) and 'categories' in map(str, p)]
    if how == 'version': meta['version'] = rng.choice([1, 2])
    elif how == 'rename':
        p, v = rng.choice(lists); _set(meta, p, v + 'x')
    else:
        (p, v), (q, w) = rng.sample(lists, 2)
        if v == w: return
        _set(meta, p, w); _set(meta, q, v)
    (d/'m'/'model.json').write_text(json.dumps(meta))
    with pytest.raises(InputError, match=str(d/'m').replace('+', r'\+')): load_model(d/'m')


def _old_model(place: Path, to: Path, version: int, swap: bool = True) -> Path:
    "The saved model written as a genuine version 1 or 2 folder (no checksum of model.json), its first two labels swapped."
    shutil.copytree(place/'model', to)
    meta = json.loads((to/'model.json').read_text())
    if swap: c = meta['encoder']['categories'][0]; c[0], c[1] = c[1], c[0]
    meta.update(version=version, layers=len(meta.pop('widths')) - 1); meta.pop('stop'); meta.pop('sha256')
    if version == 2: meta['weights_sha256'] = hashlib.sha256((to/'weights.safetensors').read_bytes()).hexdigest()
    (to/'model.json').write_text(json.dumps(meta))
    return to


@pytest.mark.parametrize('version', [1, 2])
def test_old_models_are_refused_unless_trusted(place, tmp_path, version):
    "A version 1 or 2 model could be edited unseen (labels swapped give a wrong verdict): refused, unless trusted."
    m = _old_model(place, tmp_path/'m', version)
    before = digest(tmp_path)
    with pytest.raises(InputError, match=f'is a version {version} model: its model.json has no checksum') as e: load_model(m)
    assert str(m) in str(e.value) and '\n' not in str(e.value)
    code, out, err = run('verify', m, '--antecedent', 'weather=warm', '--consequent', 'beverage=soda', '--data', place/'t.csv')
    refused(code, err, str(m), f'version {version}')
    assert digest(tmp_path) == before
    with pytest.warns(UserWarning, match='loaded on trust'): load_model(_old_model(place, tmp_path/'ok', version, swap=False), trust=True)


def test_old_model_with_edges_on_text(place, tmp_path):
    "A trusted version 1 model whose text feature has bin edges is refused at load, naming model.json, not the data."
    m = _old_model(place, tmp_path/'m', 1, swap=False)
    meta = json.loads((m/'model.json').read_text()); meta['encoder']['edges'] = {'weather': [0, 1, 2]}
    (m/'model.json').write_text(json.dumps(meta))
    with pytest.raises(InputError, match="model.json is damaged: the feature 'weather' has bin edges"): load_model(m, trust=True)


def test_a_model_of_nan_is_not_saved(place, tmp_path):
    import torch
    from aerial_nb.persist import save_model
    model = load_model(place/'model')
    with torch.no_grad(): model.net.state_dict()['encoder.0.weight'][0, 0] = torch.nan
    with pytest.raises(ValueError, match=r'model holds weights that are not finite numbers \(in encoder\.0\.weight\)'):
        save_model(model, tmp_path/'m')
    assert list(tmp_path.iterdir()) == []                            # nothing written, not even a temporary folder


def test_a_huge_number_in_model_json(place, tmp_path):
    shutil.copytree(place/'model', tmp_path/'m')
    (tmp_path/'m'/'model.json').write_text((tmp_path/'m'/'model.json').read_text().replace('"models": 1', '"models": ' + '9' * 5000))
    with pytest.raises(InputError, match=r'm/model.json is damaged: it holds a number with over 4,300 digits$'): load_model(tmp_path/'m')


# ---------------------------------------------------------------- Parquet folders of random schemas

@FAST
@given(st.lists(st.lists(st.sampled_from('abcd'), min_size=1, max_size=4, unique=True), min_size=2, max_size=3),
       st.booleans())
def test_parquet_folders_of_differing_columns(tmp_path_factory, columns, index):
    d = tmp_path_factory.mktemp('pq')
    rng = np.random.default_rng(len(columns))
    for i, cols in enumerate(columns):
        df = pd.DataFrame({c: rng.choice(['x', 'y'], 50) for c in cols})
        (df.set_index(cols[0]) if index and len(cols) > 1 else df).to_parquet(d/f'part{i}.parquet')
    before = digest(d)
    code, out, err = run('info', d, '--quiet', '--json')
    assert digest(d) == before
    same = all(sorted(c) == sorted(columns[0]) for c in columns)
    if not same: refused(code, err, str(d))                          # never read with the first file's columns only
    else:                                                            # every column mined, an index column too
        assert code == 0, err
        assert sorted(json.loads(out)['per_feature']) == sorted(columns[0])


# ---------------------------------------------------------------- the Python API: wrong types and values

def _api():
    from aerial_nb import mine, mine_itemsets
    from aerial_nb.encoding import encode
    bad = ['a', float('nan'), float('inf'), -1, 10**30, None, [1], {'a': 1}, True]
    calls = {'mine': (mine, ['min_support', 'min_confidence', 'min_lift', 'floor', 'alpha', 'margin', 'productive',
                             'max_antecedents', 'top_k', 'seed', 'tau_a', 'tau_c', 'epochs', 'batch_size', 'layers',
                             'budget', 'near_constant', 'sample_rows', 'models']),
             'mine_itemsets': (mine_itemsets, ['min_support', 'max_length', 'seed', 'tau_i', 'budget']),
             'encode': (encode, ['bins', 'max_distinct', 'max_codes', 'max_categories', 'missing', 'binning'])}
    return [(name, f, p, v) for name, (f, ps) in calls.items() for p in ps for v in bad]


API = _api()
_FINE = {('mine', 'budget', 10**30), ('mine', 'top_k', 10**30),
         ('mine_itemsets', 'budget', 10**30), ('mine', 'budget', math.inf), ('mine_itemsets', 'budget', math.inf), ('mine', 'sample_rows', 10**30), ('encode', 'max_codes', 10**30),
         ('encode', 'max_categories', 10**30), ('encode', 'max_distinct', 10**30)}   # large, but meaningful
_FINE_NONE = {'top_k', 'sample_rows', 'budget', 'min_support', 'bins', 'seed', 'max_antecedents', 'max_length',
              'epochs', 'tau_a', 'tau_c', 'tau_i', 'layers', 'batch_size', 'alpha', 'floor', 'margin', 'productive',
              'near_constant', 'max_categories', 'max_codes', 'max_distinct', 'min_confidence', 'min_lift', 'models'}


@pytest.mark.parametrize('name,f,param,value', API, ids=[f'{n}-{p}-{v!r}'[:60] for n, f, p, v in API])
def test_api_refuses_wrong_values(name, f, param, value):
    if any((name, param) == f[:2] and value is f[2] or (name, param, value) == f for f in _FINE) \
            or (value is None and param in _FINE_NONE): return
    df = weather_beverage()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try: f(df, **{param: value}, **({'progress': False} if name != 'encode' else {}))
        except (TypeError, ValueError) as e: assert param in str(e), (param, value, str(e))
        else:
            if isinstance(value, bool) or value is None or (isinstance(value, (int, float)) and not math.isfinite(value)) \
                    or isinstance(value, (str, list, dict)):
                pytest.fail(f'{name}({param}={value!r}) was accepted')


MORE_API = [('train', 'lr', 1e300), ('train', 'weight_decay', 1e39), ('train', 'weight_decay', math.nan), ('train', 'lr', math.inf),
            ('mine', 'lr', 1e300), ('mine', 'weight_decay', 1e39), ('mine', 'min_lift', 1e19), ('mine', 'min_lift', 10**30),
            *[('extract_rules', 'memory_mb', v) for v in ('a', math.nan, math.inf, -math.inf, 0, -1, [], None)],
            ('frequent_itemsets', 'memory_mb', math.nan), ('extract_rules', 'model', 'model'),
            ('verify', 'model', 'model'), ('verify', 'model', None), ('load_model', 'trust', 'yes')]


@pytest.mark.parametrize('name,param,value', MORE_API, ids=[f'{n}-{p}-{v!r}' for n, p, v in MORE_API])
def test_api_refuses_values_of_training_and_extraction(place, name, param, value):
    "Values torch cannot hold (float32), working memory that is not a positive number, a model that is not one."
    from aerial_nb import mine
    from aerial_nb.autoencoder import train
    from aerial_nb.encoding import encode
    from aerial_nb.extraction import extract_rules, frequent_itemsets, verify
    enc, X = encode(weather_beverage())
    model = load_model(place/'model')
    call = {'train': lambda **kw: train(X, enc, progress=False, steps=5, **kw),
            'mine': lambda **kw: mine(weather_beverage(), method='model', progress=False, **kw),
            'extract_rules': lambda **kw: extract_rules(**{'model': model, **kw}),
            'frequent_itemsets': lambda **kw: frequent_itemsets(model, **kw),
            'verify': lambda **kw: verify(**{'model': model, 'antecedent': ['weather=warm'], 'consequent': 'beverage=soda', **kw}),
            'load_model': lambda **kw: load_model(place/'model', **kw)}[name]
    with pytest.raises((TypeError, ValueError)) as e: call(**{param: value})
    assert param in str(e.value) and '\n' not in str(e.value), str(e.value)


# ---------------------------------------------------------------- odd inputs and outputs of a real process

def _script() -> list:
    "The `aerial-nb` console script as a user runs it."
    import shutil
    return [shutil.which('aerial-nb') or pytest.skip('the aerial-nb script is not installed')]


def _cli(*argv, **kw):
    import subprocess
    return subprocess.run(_script() + list(map(str, argv)), capture_output=True, text=True, timeout=120, **kw)


def test_endless_input_is_refused_in_bounded_memory():
    "`/dev/zero` has no line end: the header is read up to a limit, then refused."
    p = _cli('mine', '/dev/zero', '--quiet')
    refused(p.returncode, p.stderr, '/dev/zero')


def test_a_named_pipe_is_read_once(tmp_path):
    import os, threading
    fifo = tmp_path/'pipe.csv'; os.mkfifo(fifo)
    text = weather_beverage().to_csv(index=False)
    def write():
        with open(fifo, 'w') as f: f.write(text)
    threading.Thread(target=write, daemon=True).start()
    p = _cli('mine', fifo, '--quiet', '--json')
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)['rules'] == json.loads(_cli('mine', 'demo', '--quiet', '--json').stdout)['rules']


def test_closed_stdout():
    import subprocess
    import shlex
    p = subprocess.run(['bash', '-c', shlex.join(_script() + ['mine', 'demo', '--quiet']) + ' >&-'],
                       stderr=subprocess.PIPE, text=True, timeout=120)
    refused(p.returncode, p.stderr, 'standard output')


def _started(argv: list):
    "`argv` started with Ctrl-C ignored, once it has put its own handler in place (Linux shows it in /proc; elsewhere: after 1 s)."
    import signal, subprocess, time
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    status, deadline = Path(f'/proc/{p.pid}/status'), time.monotonic() + 60
    if not status.parent.exists(): time.sleep(1.0); return p
    while time.monotonic() < deadline and p.poll() is None:
        try: caught = re.search(r'SigCgt:\s*([0-9a-f]+)', status.read_text())
        except OSError: break                                          # it ended meanwhile
        if caught and int(caught[1], 16) >> (signal.SIGINT - 1) & 1: return p
        time.sleep(0.005)
    pytest.fail(f'{argv} never put a Ctrl-C handler in place')


def test_ctrl_c_while_starting():
    import signal, time
    p = _started(_script() + ['mine', 'demo', '--quiet'])
    time.sleep(0.3); p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode in (130, 0), (p.returncode, err)               # 0 only if it had already finished
    assert 'Traceback' not in err and len(err.strip().splitlines()) <= 1, err


def test_ctrl_c_while_a_csv_is_read(tmp_path):
    "Ctrl-C while pandas reads (and decompresses) a large CSV file is an interrupt, not a malformed file."
    import signal, time
    rows = b'x,p,1\ny,q,2\nz,p,3\nx,q,4\n' * 1_000_000
    (tmp_path/'big.csv.gz').write_bytes(gzip.compress(b'a,b,c\n' + rows, compresslevel=1))
    for delay in (1.5, 3.0, 6.0):                                   # until the interrupt comes after start-up
        p = _started(_script() + ['info', str(tmp_path/'big.csv.gz'), '--quiet'])
        time.sleep(delay); p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        assert p.returncode == 130, (p.returncode, err)               # the whole table takes longer than that to read
        line = err.strip().split('\r')[-1]
        assert 'Traceback' not in err and len(err.strip().splitlines()) == 1, err
        if line == 'aerial-nb info: interrupted': break               # `main` was running: the table was being read
        assert line == 'aerial-nb: interrupted', err                  # still starting: try later
    else: pytest.fail('the interrupt never came after start-up')


def _unprivileged() -> list:
    "A prefix that runs a command without the power to read any file (root's CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH)."
    import os
    if os.geteuid() != 0: return []
    if not shutil.which('setpriv'): pytest.skip('running as root, and setpriv is not there to drop the right to read every file')
    return ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search']


@pytest.mark.parametrize('what', ['csv', 'model folder', 'model.json', 'parquet folder', 'parquet subfolder', 'baskets'])
def test_permission_denied(place, tmp_path, what):
    "A file or folder the user may not read: one line naming it and the cause, whatever it is."
    import subprocess
    d = tmp_path/'in'; d.mkdir()
    shutil.copy(place/'t.csv', d/'t.csv'); shutil.copytree(place/'model', d/'m')
    (d/'pq'/'sub').mkdir(parents=True); shutil.copy(place/'t.parquet', d/'pq'/'sub'/'p.parquet')
    locked, argv = {'csv': (d/'t.csv', ['info', d/'t.csv']), 'model folder': (d/'m', ['verify', d/'m']),
                    'model.json': (d/'m'/'model.json', ['verify', d/'m']), 'parquet folder': (d/'pq', ['info', d/'pq']),
                    'parquet subfolder': (d/'pq'/'sub', ['info', d/'pq']),
                    'baskets': (d/'t.csv', ['mine', d/'t.csv', '--baskets'])}[what]
    if argv[0] == 'verify': argv += ['--antecedent', 'weather=warm', '--consequent', 'beverage=soda']
    before = digest(d)
    locked.chmod(0)
    try:
        p = subprocess.run(_unprivileged() + _script() + [str(a) for a in argv] + ['--quiet'] * (argv[0] != 'verify'),
                           capture_output=True, text=True, timeout=120)
    finally: locked.chmod(0o755 if locked.is_dir() else 0o644)
    refused(p.returncode, p.stderr, str(locked), 'Permission denied')
    assert digest(d) == before


def test_baskets_through_a_pipe(tmp_path):
    "A file of baskets can come through a pipe, as a table can: read once, the same itemsets as from the file."
    (tmp_path/'b.txt').write_text('bread,milk\nbread,butter,milk\nbeer\nbread,butter\nbread,milk\n' * 20)
    from_file = _cli('itemsets', tmp_path/'b.txt', '--baskets', '--quiet', '--json')
    piped = _cli('itemsets', '/dev/stdin', '--baskets', '--quiet', '--json', input=(tmp_path/'b.txt').read_text())
    assert from_file.returncode == piped.returncode == 0, piped.stderr
    counts = lambda s: {k: json.loads(s)[k] for k in ('itemsets', 'rows', 'categories', 'support')}
    assert counts(piped.stdout) == counts(from_file.stdout)
    refused(*(lambda p: (p.returncode, p.stderr))(_cli('mine', '/dev/zero', '--baskets', '--quiet')), '/dev/zero', 'not text')


def test_parquet_through_a_pipe(place):
    "A pipe is read as CSV: a Parquet file sent through one is refused, asking for its path (it cannot be renamed)."
    with open(place/'t.parquet', 'rb') as f: p = _cli('info', '/dev/stdin', '--quiet', stdin=f)
    refused(p.returncode, p.stderr, '/dev/stdin', "give the Parquet file's path")
    assert 'name it' not in p.stderr


@pytest.mark.parametrize('command,option,value,column', [('mine', '--min-confidence', '0.95', 'confidence'),
                                                         ('mine', '--min-support', '0.4', 'support'),
                                                         ('itemsets', '--min-support', '0.4', 'support')])
def test_paper_mode_applies_thresholds(tmp_path, command, option, value, column):
    "--paper mines with the model's thresholds, then keeps what passes the thresholds given, counted exactly."
    code, out, err = run(command, 'demo', '--quiet', '--paper', option, value, '--out', tmp_path/'r.csv')
    assert code == 0, err
    got = pd.read_csv(tmp_path/'r.csv')
    assert len(got) and (got[column] >= float(value)).all(), got[column].min()


@pytest.mark.parametrize('option,value', [('--alpha', '0.05'), ('--floor', '0.1'), ('--productive', '0.01'),
                                          ('--margin', '0.05'), ('--near-constant', '0.95')])
def test_paper_mode_refuses_the_default_checks(tmp_path, option, value):
    "The default mode's checks, given with --paper (which does not run them): refused in one line naming the option."
    code, out, err = run('mine', 'demo', '--quiet', '--paper', option, value, '--out', tmp_path/'r.csv')
    refused(code, err, option, '--paper')
    assert list(tmp_path.iterdir()) == []

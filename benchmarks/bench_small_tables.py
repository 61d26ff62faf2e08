"""Small tables after a change: the same rules and the time as a multiple of a baseline revision, in one process.

    python benchmarks/bench_small_tables.py [--base main] [--repeat 5] [--out FILE]

The baseline is the package as committed at `--base` (a branch, tag or commit), extracted with
`git archive` into a temporary folder and imported as `aerial_nb_base` beside this checkout's
`aerial_nb` (its absolute imports of `aerial_nb.` rewritten to `aerial_nb_base.`, so that it never runs this
checkout's code), so both run in the same process on the same tables, alternately, and the ratios compare
like with like (CPU timings on a shared machine are indicative; the best of `--repeat` runs counts).
The miner is `aerial_nb.mining` (`aerial_nb.rules` in revisions before the modules were renamed).

For each of the paper's five tables (class column dropped) it runs `mine(table, seed=0)` and
`mine(table, seed=0, paper=True)` with both versions and reports the number of rules, whether the rule
sets and their exact support, confidence and lift are identical, and new time / baseline time.
Exit code 1 when any rule set differs. `--out` appends the command, the revisions and the table to a markdown file;
a checkout whose package differs from its commit is named `HASH-dirty` there.
"""
import argparse, importlib, re, shlex, subprocess, sys, tarfile, tempfile, time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).parents[1]


def baseline(rev: str, folder: Path) -> str:
    "Extract `aerial_nb` at git revision `rev` into `folder` as the package `aerial_nb_base`; its name."
    tar = subprocess.run(['git', 'archive', rev, 'aerial_nb'], cwd=ROOT, capture_output=True, check=True).stdout
    with tempfile.TemporaryFile() as f:
        f.write(tar); f.seek(0)
        with tarfile.open(fileobj=f) as t: t.extractall(folder, filter='data')
    (folder/'aerial_nb').rename(folder/'aerial_nb_base')
    for f in (folder/'aerial_nb_base').rglob('*.py'):                  # its own modules, never this checkout's
        f.write_text(re.sub(r'\baerial_nb\b(?=\.)', 'aerial_nb_base', f.read_text()).replace(
            'import aerial_nb\n', 'import aerial_nb_base as aerial_nb\n'))
    sys.path.insert(0, str(folder))
    return 'aerial_nb_base'


def rule_set(df: pd.DataFrame) -> pd.DataFrame:
    "Rules as sorted text with their exact metrics, in a fixed order."
    text = [' & '.join(sorted(a)) + ' -> ' + ' & '.join(sorted(c)) for a, c in zip(df.antecedents, df.consequents)]
    return df[['support', 'confidence', 'lift']].assign(rule=text).sort_values('rule').reset_index(drop=True)


def markdown(df: pd.DataFrame) -> str:
    "A frame as a markdown table."
    rows = [list(df.columns), ['---'] * len(df.columns)] + df.astype(str).values.tolist()
    return '\n'.join('| ' + ' | '.join(map(str, r)) + ' |' for r in rows)


def timed(f) -> tuple:
    "Wall time of one call, and its result."
    t0 = time.perf_counter(); out = f()
    return time.perf_counter() - t0, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--base', default='main', help='git revision to compare against')
    ap.add_argument('--repeat', type=int, default=5, help='runs of each (the fastest counts)')
    ap.add_argument('--datasets', nargs='+', default=None, help="UCI tables (default: the paper's five)")
    ap.add_argument('--out', default=None, help='append the results to this markdown file')
    a = ap.parse_args()
    from aerial_nb.datasets import PAPER_DATASETS, load_uci
    with tempfile.TemporaryDirectory() as tmp:
        name = baseline(a.base, Path(tmp))
        miner = 'mining' if (Path(tmp)/name/'mining.py').exists() else 'rules'
        base = importlib.import_module(f'{name}.{miner}')
        new = importlib.import_module('aerial_nb.mining')
        rows = []
        for name in a.datasets or PAPER_DATASETS:
            df = load_uci(name, drop_class=True)
            for mode, opts in (('default', {}), ('paper', dict(paper=True))):
                run = lambda m: m.mine(df, seed=0, **opts)
                run(base); run(new)                                              # warm up both
                tb, tn = [], []
                for _ in range(a.repeat):                                        # alternately, so that load on the machine hits both alike
                    (t, rb), (u, rn) = timed(lambda: run(base)), timed(lambda: run(new))
                    tb.append(t); tn.append(u)
                tb, tn = min(tb), min(tn)
                rb, rn = rule_set(rb), rule_set(rn)
                rows.append(dict(table=name, mode=mode, rules=len(rn), same_rules=rb.equals(rn), base_s=tb, new_s=tn, ratio=tn / tb))
                print(f"{name:22s} {mode:8s} {len(rn):6d} rules  same {rows[-1]['same_rules']!s:5s}  {tb:7.3f}s -> {tn:7.3f}s  ratio {tn / tb:.3f}", flush=True)
    out = pd.DataFrame(rows)
    gm = lambda r: np.exp(np.log(r).mean())
    line = (f"new / {a.base}: geometric mean {gm(out.ratio):.3f}, default {gm(out.ratio[out['mode'] == 'default']):.3f}, "
            f"paper {gm(out.ratio[out['mode'] == 'paper']):.3f}; same rules everywhere: {out.same_rules.all()}")
    print('\n' + line)
    if a.out:
        rev = lambda r: subprocess.run(['git', 'rev-parse', '--short', r], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(['git', 'status', '--porcelain', '--', 'aerial_nb'], cwd=ROOT, capture_output=True,
                               text=True).stdout.strip()
        with open(a.out, 'a') as f:
            f.write(f"## {rev('HEAD') + ('-dirty' if dirty else '')} against {rev(a.base)}\n\n`python benchmarks/bench_small_tables.py "
                    f"{shlex.join(sys.argv[1:])}`\n\n{markdown(out.round(3))}\n\n{line}\n\n")
    sys.exit(0 if out.same_rules.all() else 1)


if __name__ == '__main__': main()

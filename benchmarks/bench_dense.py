"""What `DENSE` trades: counting (antecedent, consequent) pairs one by one against counting a chunk of antecedents in full.

    nice -n 19 python benchmarks/bench_dense.py [--out DIR] [--quick]

On wide binary tables (`family_table('wide_binary', ...)`, seed 0), for each shape (rows, 0/1 columns, antecedent
length): the time per pair of `dense_counts` (every allowed pair of a chunk of random antecedents, blocked products a
share of the rows at a time) and of `rule_counts` (a random 5% of the same pairs, one by one on bit sets), and their
ratio. The model path counts a chunk in full where its gate lets through more than `DENSE` of the chunk's pairs, so
`DENSE` pays off at about the inverse of that ratio. Then the model path end to end on one table (`mine(df,
method='model')`) with `DENSE` at 0.25 (its earlier value) and at its default, alternated in one process. Writes
`dense.json` and `dense.md` into `--out` with this command and the machine.
"""
import argparse, os, shlex, sys, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd

import aerial_nb.mining as mining
from aerial_nb.bitsets import itemset_counts
from aerial_nb.encoding import encode
from aerial_nb.mining import dense_counts, mine
from aerial_nb.quality import Checks, data_bits, rule_counts
from aerial_nb.studies.harness import best_of, markdown_table, write_results
from aerial_nb.synthetic import family_table

OUT = Path(__file__).resolve().parents[1]/'nbs'/'studies'/'results'
SHAPES = [(2000, 300, 2, 2000), (10000, 300, 2, 2000), (30000, 1000, 2, 1000), (100000, 300, 1, 600),
          (100000, 300, 2, 1000), (1000000, 300, 2, 200)]     # rows, noise columns, antecedent length, antecedents
END = (100000, 300)                                            # the table mined end to end: rows, noise columns
EARLIER = 0.25                                                 # DENSE before it was measured


def pair_costs(rows: int, noise: int, length: int, m: int, seed: int = 0) -> dict:
    "Seconds per pair counted in full (`dense_counts`) and one by one (`rule_counts`) on one shape."
    df, _ = family_table('wide_binary', rows, seed=seed, n_noise=noise)
    enc, X = encode(df)
    bits, n = data_bits(X, enc)
    checks, fo, D = Checks(bits, enc, length, n_rows=n), np.asarray(enc.feature_of), enc.n_items
    rng = np.random.default_rng(seed)
    sets = np.sort(np.stack([rng.choice(D, length, replace=False) for _ in range(3 * m)]), 1)
    sets = sets[(fo[sets][:, :, None] != fo[sets][:, None, :]).sum((1, 2)) == length * (length - 1)][:m]
    sup = itemset_counts(checks.bits, sets, n_rows=n)
    full, _ = best_of(lambda: dense_counts(checks, sets, sup), repeat=2)
    r, c = np.nonzero((fo[sets][:, :, None] != fo[None, None, :]).all(1))
    pick = rng.random(len(r)) < 0.05
    one, _ = best_of(lambda: rule_counts(checks.bits, sets[r[pick]], c[pick], n), repeat=2)
    per_full, per_one = full / (len(sets) * D), one / pick.sum()
    return dict(rows=rows, items=D, length=length, antecedents=len(sets), full_ns=per_full * 1e9,
                one_ns=per_one * 1e9, ratio=per_one / per_full)


def end_to_end(rows: int, noise: int, repeat: int = 2) -> list:
    "The model path on one table, `DENSE` at `EARLIER` and at its default, alternated `repeat` times."
    df, _ = family_table('wide_binary', rows, seed=0, n_noise=noise)
    default, out = mining.DENSE, []
    try:
        for _ in range(repeat):
            for d in (EARLIER, default):
                mining.DENSE = d
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    t = time.perf_counter(); rules = mine(df, method='model', seed=0, progress=False)
                out.append(dict(dense=d, seconds=time.perf_counter() - t, rules=len(rules),
                                pairs_counted=int(rules.attrs['summary'].candidates)))
    finally: mining.DENSE = default
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(OUT), help='folder of the results files')
    ap.add_argument('--quick', action='store_true', help='the two smallest shapes and a 10,000-row table end to end')
    a = ap.parse_args(argv)
    shapes, end = (SHAPES[:2], (10000, 100)) if a.quick else (SHAPES, END)
    costs = pd.DataFrame([pair_costs(*s) for s in shapes])
    runs = pd.DataFrame(end_to_end(*end))
    best = runs.groupby('dense', sort=False).agg(seconds=('seconds', 'min'), rules=('rules', 'first'),
                                                 pairs_counted=('pairs_counted', 'first'))
    note = ('nice -n 19 ' if os.nice(0) >= 19 else '') + 'python benchmarks/bench_dense.py ' + shlex.join(argv)
    md = '\n'.join([
        'Nanoseconds per (antecedent, consequent) pair, counted in full (`dense_counts`) and one by one (`rule_counts`):', '',
        markdown_table(costs.round({'full_ns': 1, 'one_ns': 1, 'ratio': 1})), '',
        f'`DENSE` is {mining.DENSE}; the median ratio is {costs.ratio.median():.1f}, its inverse '
        f'{1 / costs.ratio.median():.2f}.', '',
        f"The model path on wide_binary, {end[0]:,} rows and {end[1]} noise columns, best of "
        f"{len(runs) // 2} runs each, alternated:", '', markdown_table(best), '',
        f"At the default, {best.seconds.iloc[0] / best.seconds.iloc[1]:.2f} times faster than at {EARLIER}."])
    paths = write_results(a.out, 'dense', 'What DENSE trades: pairs one by one against chunks in full',
                          dict(dense=mining.DENSE, earlier=EARLIER, costs=costs.to_dict('records'),
                               end_to_end=dict(rows=end[0], n_noise=end[1], runs=runs.to_dict('records'))),
                          md, note=note.strip())
    print(paths[1].read_text())


if __name__ == '__main__':
    main()

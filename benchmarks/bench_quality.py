"""Time `aerial_nb.quality.rule_metrics` against mlxtend's and pyaerial's metric code, on the same rules.

    AERIAL_NB_DATA=/path/to/uci/mirror python benchmarks/bench_quality.py [--rules 50000] [--dataset spambase]

A comparison, not a test: mlxtend and pyaerial are baselines, not dependencies of aerial_nb (install
them yourself: `pip install mlxtend pyaerial==1.1.0`). Everything runs in one process, so the ratios
compare like with like. The rules are random: a consequent and two antecedent items, from three
distinct features.

- aerial_nb: `rule_metrics(X, ante, cons)`, all twelve columns, packing the table into bit sets included.
- mlxtend: `association_rules` cannot be handed rules; it derives every split of every itemset in a
  table of frequent itemsets. We give it exactly the itemsets our rules need (each rule's items and
  all their subsets) with supports counted beforehand (not timed), so its time is metric computation
  only, and it also scores the extra splits it derives (reported).
- pyaerial 1.1.0: `aerial.rule_quality.calculate_rule_metrics`, the per-rule loop pyaerial uses to score
  mined rules, with all its metrics. Its module is loaded from its file so that importing the
  `aerial` package (which imports torch) is avoided.
"""
import argparse, importlib.metadata, importlib.util, itertools, sys, warnings
from pathlib import Path

import numpy as np
import pandas as pd

from aerial_nb.bitsets import itemset_counts
from aerial_nb.datasets import load_uci
from aerial_nb.encoding import encode
from aerial_nb.quality import METRICS, rule_metrics
from aerial_nb.studies.harness import best_of


def random_rules(enc, n_rules: int, seed: int = 1):
    "`n_rules` random rules A → c with |A| = 2, the three items from distinct features."
    r = np.random.default_rng(seed)
    feats = np.argsort(r.random((n_rules, len(enc))), axis=1)[:, :3]
    items = enc.starts[feats] + (r.random(feats.shape) * enc.sizes[feats]).astype(np.int64)
    return items[:, :2], items[:, 2]


def mlxtend_input(X, ante, cons) -> pd.DataFrame:
    "The frequent-itemset table association_rules needs for our rules: every non-empty subset of each rule's items."
    items = np.sort(np.column_stack([ante, cons]), axis=1)
    k = items.shape[1]
    subsets = [np.pad(items[:, list(c)], ((0, 0), (0, k - len(c))), constant_values=-1)
               for size in range(1, k + 1) for c in itertools.combinations(range(k), size)]
    sets = np.unique(np.vstack(subsets), axis=0)
    support = itemset_counts(X, sets) / len(X)
    return pd.DataFrame({'support': support, 'itemsets': [frozenset(s[s >= 0].tolist()) for s in sets]})


def bench_mlxtend(X, ante, cons, ours: pd.DataFrame):
    from mlxtend.frequent_patterns import association_rules
    frame = mlxtend_input(X, ante, cons)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        t, res = best_of(lambda: association_rules(frame, num_itemsets=len(X), metric='support', min_threshold=0), repeat=1)
    key = {(a, next(iter(c))): i for i, (a, c) in enumerate(zip(res.antecedents, res.consequents)) if len(c) == 1}
    rows = [key[(frozenset(a.tolist()), int(c))] for a, c in zip(ante, cons)]
    theirs = res.iloc[rows].reset_index(drop=True)
    with np.errstate(all='ignore'):
        err = {m: np.abs(ours[m].to_numpy() - theirs[m].to_numpy(float)) / (np.abs(ours[m].to_numpy()) if m == 'conviction' else 1)
               for m in METRICS[:-1]}
    diff = max(np.nanmax(np.where(np.isfinite(ours[m]), e, 0)) for m, e in err.items())
    return t, len(res), diff


def load_pyaerial_quality():
    "pyaerial 1.1.0's rule_quality module, loaded from its file (no torch), or None with the reason."
    try: version = importlib.metadata.version('pyaerial')
    except importlib.metadata.PackageNotFoundError: return None, 'pyaerial is not installed (pip install pyaerial==1.1.0)'
    if version != '1.1.0': return None, f'pyaerial {version} is installed; this benchmark was written for 1.1.0'
    path = Path(importlib.util.find_spec('aerial').submodule_search_locations[0]) / 'rule_quality.py'
    spec = importlib.util.spec_from_file_location('pyaerial_rule_quality', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, f'pyaerial {version}'


def bench_pyaerial(rq, X, ante, cons, ours: pd.DataFrame):
    rules = [{'antecedent_indices': a.tolist(), 'consequent_index': int(c)} for a, c in zip(ante, cons)]
    t, res = best_of(lambda: rq.calculate_rule_metrics(rules, X, rq.AVAILABLE_METRICS), repeat=1)
    conf = np.array([r['confidence'] for r in res])
    diff = np.nanmax(np.abs(conf - ours.confidence.to_numpy()))   # pyaerial rounds to 3 decimals, and says 0 where we say nan
    return t, diff


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--rules', type=int, default=50_000)
    p.add_argument('--dataset', default='spambase')
    args = p.parse_args()

    enc, X = encode(load_uci(args.dataset, drop_class=True))
    ante, cons = random_rules(enc, args.rules)
    print(f'{args.dataset}: {X.shape[0]:,} rows, {X.shape[1]} items; {len(cons):,} rules with two antecedent items\n')

    t_ours, ours = best_of(lambda: rule_metrics(X, ante, cons))
    print(f'aerial_nb rule_metrics  {t_ours*1e3:9.1f} ms  ({t_ours/len(cons)*1e6:.2f} µs/rule, 12 metrics, packing included)')

    try:
        t_mlx, n_mlx, diff = bench_mlxtend(X, ante, cons, ours)
        print(f'mlxtend association_rules {t_mlx*1e3:7.1f} ms  ({t_mlx/len(cons)*1e6:.2f} µs per our rule; it scored {n_mlx:,} '
              f'rules, {t_mlx/n_mlx*1e6:.2f} µs each; supports given, not timed)\n  largest difference {diff:.1e} (absolute; relative for conviction)')
        print(f'  ratio mlxtend / aerial_nb: {t_mlx/t_ours:.0f}x')
    except ImportError as e: print(f'mlxtend skipped: {e}')

    rq, why = load_pyaerial_quality()
    if rq is None: print(f'pyaerial skipped: {why}')
    else:
        t_pa, diff = bench_pyaerial(rq, X, ante, cons, ours)
        print(f'{why} calculate_rule_metrics {t_pa*1e3:7.1f} ms  ({t_pa/len(cons)*1e6:.2f} µs/rule, '
              f'{len(rq.AVAILABLE_METRICS)} metrics)\n  largest confidence difference {diff:.1e} (it rounds to 3 decimals)')
        print(f'  ratio pyaerial / aerial_nb: {t_pa/t_ours:.0f}x')
    print(f'\ntorch imported: {"torch" in sys.modules}')


if __name__ == '__main__': main()

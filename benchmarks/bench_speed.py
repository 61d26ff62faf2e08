"""Time aerial_nb's Aerial+ (encode, train, extract, score) against pyaerial 1.1.0 and FP-Growth on the five UCI tables.

    AERIAL_NB_DATA=/path/to/uci/mirror python benchmarks/bench_speed.py [--datasets NAME ...] [--repeat 3]

A comparison, not a test. Baselines are not dependencies of aerial_nb (install them yourself:
`pip install pyaerial==1.1.0 pyfim mlxtend`; if pip wants to replace torch, add `--no-deps`).
Everything runs in one process with torch limited to one thread, so the ratios compare like with like.
Each neural time is the best of `--repeat` runs with the same seed; the exhaustive miners run once.

- aerial_nb: `encode` and `train` (default training length) make the train column; `extract_rules`
  (a=2, τa=0.5, τc=0.8) and `rule_metrics` (all twelve metrics of every rule) the extract column.
- pyaerial 1.1.0: `model.train(table)` (train) and `rule_extraction.generate_rules(model)` (extract) with its defaults
  (same thresholds; it computes support, confidence and Zhang's metric per rule, and by default keeps
  only rules whose exact confidence reaches 0.8). It gets the same table, numeric columns already in
  aerial_nb's bins, so both see the same items.
- FP-Growth at the matched support (half of aerial_nb's average rule support, at most 2 antecedents,
  confidence 0.8): mlxtend's `fpgrowth` + `association_rules`, and Borgelt's C implementation in pyfim
  (`fim.fpgrowth(target='r', mode='o')`: rule support counts antecedent and consequent together).

Rule count, average confidence and coverage are recomputed for every method by `aerial_nb.quality`
from the rules' items, so they are comparable across methods.
"""
import argparse, importlib.metadata, logging, sys, time, warnings

import numpy as np
import pandas as pd
import torch

from aerial_nb.encoding import UCI_DATASETS, encode, load_uci
from aerial_nb.autoencoder import train
from aerial_nb.extraction import extract_rules
from aerial_nb.quality import rule_metrics, rule_set_summary


def best_of(f, repeat):
    "Wall time, result and phase times (train, extract) of the fastest of `repeat` calls of `f(phases)`."
    best = None
    for _ in range(repeat):
        phases = {}
        t0 = time.perf_counter(); out = f(phases); t = time.perf_counter() - t0
        if best is None or t < best[0]: best = (t, out, phases)
    return best


def labelled(X, enc):
    "The encoded table back as a table of aerial_nb's category labels (numeric columns binned), for pyaerial."
    n, k = len(X), len(enc.features)
    items = np.nonzero(X)[1].reshape(n, k)
    labels = np.array([c for cats in enc.categories for c in cats], dtype=object)
    return pd.DataFrame(labels[items], columns=enc.features)


def aerial_nb_run(df, phases):
    t0 = time.perf_counter()
    enc, X = encode(df)
    model = train(X, enc, seed=0, progress=False)
    t1 = time.perf_counter()
    rules = extract_rules(model)
    rule_metrics(X, rules.ante, rules.cons)
    phases.update(train=t1 - t0, extract=time.perf_counter() - t1)
    return rules.ante, rules.cons


def to_indices(enc, pairs, width=2):
    "(antecedent item names, consequent item name) pairs as padded index arrays."
    index = {name: i for i, name in enumerate(enc.items)}
    ante = np.full((len(pairs), width), -1, np.int64)
    for i, (a, _) in enumerate(pairs): ante[i, :len(a)] = sorted(index[x] for x in a)
    return ante, np.array([index[c] for _, c in pairs], np.int64)


def pyaerial_run(table, phases):
    from aerial import model, rule_extraction
    t0 = time.perf_counter()
    trained = model.train(table, show_progress=False)
    t1 = time.perf_counter()
    out = rule_extraction.generate_rules(trained)
    phases.update(train=t1 - t0, extract=time.perf_counter() - t1)
    name = lambda d: f"{d['feature']}={d['value']}"
    return [([name(a) for a in r['antecedents']], name(r['consequent'])) for r in out['rules']]


def mlxtend_run(X, min_count):
    from mlxtend.frequent_patterns import association_rules, fpgrowth
    n = len(X)
    f = fpgrowth(pd.DataFrame(X.astype(bool)), min_support=(min_count - 0.5) / n, max_len=3)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        r = association_rules(f, num_itemsets=n, metric='confidence', min_threshold=0.8)
    return r[r.consequents.map(len) == 1]


def pyfim_run(tracts, min_count):
    import fim
    return fim.fpgrowth(tracts, target='r', supp=-min_count, conf=80, zmin=2, zmax=3, report='a', mode='o')


def scored(X, ante, cons):
    s = rule_set_summary(X, ante, cons)
    return s['rules'], s['confidence'], s['coverage']


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--datasets', nargs='+', default=list(UCI_DATASETS), choices=list(UCI_DATASETS))
    p.add_argument('--repeat', type=int, default=3)
    args = p.parse_args()
    torch.set_num_threads(1)
    try: pa = f"pyaerial {importlib.metadata.version('pyaerial')}"
    except importlib.metadata.PackageNotFoundError: pa = None
    if pa:
        import aerial
        aerial.setup_logging(logging.WARNING)        # its progress messages are INFO
    print(f'torch {torch.__version__} (1 thread), {pa or "pyaerial not installed"}, best of {args.repeat} runs for the neural methods\n')
    warm = pd.DataFrame({'a': list('xyxy'), 'b': list('ppqq'), 'c': list('uvvu')})
    aerial_nb_run(warm, {})
    if pa: pyaerial_run(warm, {})

    head = (f'{"dataset":22s} {"method":18s} {"train s":>8s} {"extract s":>9s} {"total s":>8s} {"rules":>8s} {"conf.":>6s} '
            f'{"cov.":>6s} {"vs aerial_nb":>13s}')
    print(head); print('-' * len(head))
    ratios = {}
    for name in args.datasets:
        df = load_uci(name, drop_class=True)
        enc, X = encode(df)
        t_ours, (ante, cons), ph = best_of(lambda ph: aerial_nb_run(df, ph), args.repeat)
        rows = [('aerial_nb', t_ours, ph, scored(X, ante, cons))]
        support = rule_set_summary(X, ante, cons)['support']
        min_count = int(np.ceil(len(X) * support / 2))
        if pa:
            table = labelled(X, enc)
            t_pa, pairs, ph = best_of(lambda ph: pyaerial_run(table, ph), args.repeat)
            rows.append((pa, t_pa, ph, scored(X, *to_indices(enc, pairs))))
            ratios[name] = t_pa / t_ours
        t_mx, r, _ = best_of(lambda ph: mlxtend_run(X, min_count), 1)
        rows.append(('mlxtend FP-Growth', t_mx, {}, scored(X, *to_indices(enc, [([enc.items[i] for i in a], enc.items[next(iter(c))])
                                                                         for a, c in zip(r.antecedents, r.consequents)]))))
        try:
            tracts = [tuple(np.flatnonzero(row).tolist()) for row in X]
            t_fim, r, _ = best_of(lambda ph: pyfim_run(tracts, min_count), 1)
            rows.append(('pyfim FP-Growth', t_fim, {}, scored(X, *to_indices(enc, [([enc.items[i] for i in b], enc.items[h]) for h, b, _ in r]))))
        except ImportError: print('  (pyfim not installed)')
        for method, t, ph, (n_rules, conf, cov) in rows:
            tr, ex = (f'{ph[k]:8.3f}' if k in ph else f'{"":8s}' for k in ('train', 'extract'))
            print(f'{name:22s} {method:18s} {tr} {ex} {t:9.3f} {n_rules:8d} {conf:6.3f} {cov:6.3f} {t / t_ours:12.1f}x')
        print(f'{"":22s} (FP-Growth at min support {min_count}/{len(X)} = {min_count / len(X):.3f})')
    if ratios:
        print('\npyaerial / aerial_nb time: ' + ', '.join(f'{k} {v:.1f}x' for k, v in ratios.items()))
        print(f'aerial_nb at least 5x faster than pyaerial on every dataset: {all(v >= 5 for v in ratios.values())}')


if __name__ == '__main__': main()

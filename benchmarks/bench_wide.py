"""The wide-table study: time and peak memory of `aerial-nb mine` on wide binary tables, beside pyfim and the matrix product.

    nice -n 19 python benchmarks/bench_wide.py [--shapes 200x300 10000x2000 1000x20000] [--timeout 200] [--out DIR]

Runs `aerial_nb.studies.wide.wide_study`: for every shape (rows x 0/1 columns, ten copied pairs and ten two-item
conjunctions planted, seed 0) and antecedent lengths 1 and 2, `aerial-nb mine TABLE --max-antecedents L --json --out
rules.csv`, pyfim's FP-Growth and Apriori (support 0.1, confidence 0.9, stopped after `--timeout` seconds) and, for
one-item rules, the blocked co-occurrence product and a plain `X.T @ X`, each in a fresh process whose wall time and
peak resident memory are measured. Writes `wide.json` and `wide.md` into `--out` with this command, the machine and
the load average at the start and the end. pyfim is a baseline, not a dependency: `pip install pyfim` (or the
`bench` extra).
"""
import argparse, os, shlex, sys
from pathlib import Path

from aerial_nb.studies.wide import SHAPES, TIMEOUT, wide_study, write_wide

OUT = Path(__file__).resolve().parents[1]/'nbs'/'studies'/'results'


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--shapes', nargs='+', choices=list(SHAPES), default=list(SHAPES), help='shapes to run (rows x columns)')
    ap.add_argument('--timeout', type=float, default=TIMEOUT, help='seconds a pyfim run may take (aerial-nb and the products: an hour)')
    ap.add_argument('--out', default=str(OUT), help='folder of the results files')
    a = ap.parse_args(argv)
    note = ('nice -n 19 ' if os.nice(0) >= 19 else '') + 'python benchmarks/bench_wide.py ' + shlex.join(argv)
    start = os.getloadavg()
    runs = wide_study(a.shapes, a.timeout)
    paths = write_wide(runs, a.out, note=note.strip(), timeout=a.timeout,
                       load=(tuple(round(x, 2) for x in start), tuple(round(x, 2) for x in os.getloadavg())))
    print(paths[1].read_text())


if __name__ == '__main__':
    main()

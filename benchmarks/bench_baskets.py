"""The basket study: a Quest-style T10I4D100K mined at low support by aerial-nb, pyfim and mlxtend.

    nice -n 19 python benchmarks/bench_baskets.py [--baskets 100000] [--supports 0.01 0.005 0.001] [--timeout 600]

Runs `aerial_nb.studies.baskets.basket_study`: every method at every support, each in a fresh process whose wall time
and peak resident memory are measured, and aerial-nb's rules compared with pyfim's passed through its checks. Writes
`baskets.json` and `baskets.md` into `--out`. pyfim and mlxtend are baselines, not dependencies (the `bench` extra).
"""
import argparse, os, shlex, sys
from pathlib import Path

from aerial_nb.studies.baskets import SUPPORTS, basket_study, write_baskets

OUT = Path(__file__).resolve().parents[1]/'nbs'/'studies'/'results'


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--baskets', type=int, default=100_000, help='baskets of the table')
    ap.add_argument('--supports', nargs='+', type=float, default=list(SUPPORTS), help='minimum supports')
    ap.add_argument('--timeout', type=float, default=600, help='seconds one run may take')
    ap.add_argument('--out', default=str(OUT), help='folder of the results files')
    a = ap.parse_args(argv)
    note = (('nice -n 19 ' if os.nice(0) >= 19 else '') + 'python benchmarks/bench_baskets.py ' + shlex.join(argv)).strip()
    runs = basket_study(a.baskets, a.supports, a.timeout)
    paths = write_baskets(runs, a.out, note=note)
    print(paths[1].read_text())


if __name__ == '__main__':
    main()

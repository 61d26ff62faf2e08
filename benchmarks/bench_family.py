"""The family study: the default mode on tables of seven families up to a million rows, and on tables of independent columns.

    nice -n 19 python benchmarks/bench_family.py family [--rows 1000 10000 100000 1000000] [--timeout 300]
    nice -n 19 python benchmarks/bench_family.py noise [--rows 200 1000] [--widths 10:12 100:10 500:3 2000:1] [--timeout 300]

`family` runs `aerial_nb.studies.family.family_study` on its fixed grid (`GRID` x `ROWS`, seed 0):
every table mined with `mine(df)` and `mine(df, method='model')`, scored against pyfim's strong rules
and the table's exact set, each run in a process of its own, stopped past `--timeout` seconds or
`MEMORY_MB` of resident memory (a run stopped on a table is skipped on the larger tables of its setting). `noise`
runs `noise_study`: tables of independent columns, the share with no rule. Each writes its results
files (`family.json`/`.md` or `noise.json`/`.md`) into `--out` with this command and the machine.
pyfim is a baseline, not a dependency of aerial_nb: `pip install pyfim` (or the `bench` extra).
"""
import argparse, os, shlex, sys
from pathlib import Path

from aerial_nb.quality import CORRECTION, CORRECTIONS
from aerial_nb.studies.family import (NOISE_ROWS, NOISE_WIDTHS, ROWS, TIMEOUT, family_study, noise_study, write_family,
                                      write_noise)

OUT = Path(__file__).resolve().parents[1]/'nbs'/'studies'/'results'


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('study', choices=['family', 'noise'])
    ap.add_argument('--rows', nargs='+', type=int, default=None, help='rows of the tables (default: the study\'s)')
    ap.add_argument('--widths', nargs='+', default=None, metavar='COLUMNS:SEEDS',
                    help="noise: the tables' widths and the seeds of each (default: the study's)")
    ap.add_argument('--timeout', type=float, default=TIMEOUT, help='seconds one run may take')
    ap.add_argument('--correction', choices=CORRECTIONS, default=CORRECTION,
                    help="noise: the significance test's correction (another than the default's: written as noise_CORRECTION)")
    ap.add_argument('--out', default=str(OUT), help='folder of the results files')
    a = ap.parse_args(argv)
    note = ('nice -n 19 ' if os.nice(0) >= 19 else '') + 'python benchmarks/bench_family.py ' + shlex.join(argv)
    if a.study == 'family':
        runs = family_study(rows=a.rows or ROWS, timeout=a.timeout)
        paths = write_family(runs, a.out, note=note)
    else:
        widths = dict(tuple(map(int, w.split(':'))) for w in a.widths) if a.widths else NOISE_WIDTHS
        runs = noise_study(rows=a.rows or NOISE_ROWS, widths=widths, timeout=a.timeout, correction=a.correction)
        paths = write_noise(runs, a.out, note=note, correction=a.correction)
    print(paths[1].read_text())


if __name__ == '__main__':
    main()

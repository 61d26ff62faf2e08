"""The classifier comparison: RuleClassifier and scikit-learn's decision tree fold by fold, beside CBA, BRL and CORELS.

    python benchmarks/bench_classifiers.py [--datasets NAME ...] [--out DIR] [--render]

Runs `aerial_nb.studies.classifiers.classifier_study` (the paper's five tables, ten stratified folds, seed 0: the
classification study's folds) and writes `classifiers.json` and `classifiers.md` into `--out`, the rule learners'
accuracies, rule-list sizes and times read from the classification study's saved `classification.json` there.
`--render` runs nothing: it writes `classifiers.md` again from the `classifiers.json` already there (the same runs
and header, the tables of today's code). Needs the `sklearn` extra.
"""
import argparse, shlex, sys
from pathlib import Path

from aerial_nb.studies.classifiers import classifier_study, render_classifiers, write_classifiers
from aerial_nb.studies.harness import read_results

OUT = Path(__file__).resolve().parents[1]/'nbs'/'studies'/'results'


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--datasets', nargs='+', default=None, help='tables (default: the paper\'s five)')
    ap.add_argument('--out', default=str(OUT), help='folder of the results files')
    ap.add_argument('--render', action='store_true', help='run nothing: write classifiers.md again from classifiers.json')
    a = ap.parse_args(argv)
    if a.render:
        if a.datasets: ap.error('--render runs nothing: it takes no --datasets')
        paths = render_classifiers(a.out)
    else:
        runs = classifier_study(a.datasets)
        known = Path(a.out)/'classification.json'
        paths = write_classifiers(runs, a.out, read_results(known) if known.exists() else None,
                                  note=('python benchmarks/bench_classifiers.py ' + shlex.join(argv)).strip())
    print(paths[1].read_text())


if __name__ == '__main__':
    main()

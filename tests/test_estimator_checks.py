"scikit-learn's estimator checks of `RuleClassifier`, one pytest item each (the classifier chapter runs them too)."
import pytest
pytest.importorskip('sklearn')
from sklearn.utils.estimator_checks import parametrize_with_checks
from aerial_nb.classifier import EXPECTED_FAILURES, RuleClassifier


@parametrize_with_checks([RuleClassifier()], expected_failed_checks=lambda est: EXPECTED_FAILURES)
def test_sklearn_compatible(estimator, check):
    check(estimator)

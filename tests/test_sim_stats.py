"""The simulator's statistics against published values and direct computation."""

import math
import random
import statistics

import pytest

from scoutlab.sim.stats import (
    bootstrap_histogram,
    chi2_sf,
    chi_square_uniform,
    histogram_sd,
    holm,
    two_sided_p,
    wilson,
    z_value,
)
from scoutlab.sim.tally import CrossSums, PairTally, Sums, Tally, paired_standard_error, unpaired_standard_error


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3 (Wilson).
@pytest.mark.parametrize("successes, trials, low, high", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_exactly_bounded_at_the_extremes():
    assert wilson(0, 50)[0] == 0.0
    assert wilson(50, 50)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


# The 5% and 1% critical values of the chi-square distribution (any statistics table).
@pytest.mark.parametrize("x, df, p", [
    (3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (9.487729, 4, 0.05),
    (11.070498, 5, 0.05), (6.634897, 1, 0.01), (13.276704, 4, 0.01), (15.086272, 5, 0.01),
])
def test_chi2_sf_at_critical_values(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_chi2_sf_closed_forms():
    assert chi2_sf(10.0, 2) == pytest.approx(math.exp(-5))  # df 2 is the exponential tail
    assert chi2_sf(0.0, 3) == 1.0
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_chi_square_uniform_example():
    statistic, df, p = chi_square_uniform([10, 20, 30])  # expected 20 each: (100 + 0 + 100) / 20
    assert (statistic, df) == (10.0, 2)
    assert p == pytest.approx(math.exp(-5))
    assert chi_square_uniform([25, 25, 25, 25])[2] == 1.0


def test_holm_step_down():
    # sorted: .005*4=.02, .01*3=.03, .03*2=.06, .04*1=.04 -> monotone .06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_two_sided_p():
    assert two_sided_p(1.959964, 1.0) == pytest.approx(0.05, rel=1e-5)
    assert two_sided_p(0.0, 0.0) == 1.0
    assert two_sided_p(1.0, 0.0) == 0.0
    assert z_value() == pytest.approx(1.959964, rel=1e-6)


def test_bootstrap_of_a_constant_sample_is_that_constant():
    low, high = bootstrap_histogram([7.0], [40], histogram_sd, seed=1)
    assert (low, high) == (0.0, 0.0)


def test_bootstrap_sd_interval_covers_the_sd_and_is_reproducible():
    rng = random.Random(5)
    sample = [rng.randint(0, 20) for _ in range(400)]
    values = sorted(set(sample))
    counts = [sample.count(v) for v in values]
    sd = statistics.stdev(sample)
    first = bootstrap_histogram(values, counts, histogram_sd, seed=3)
    assert first == bootstrap_histogram(values, counts, histogram_sd, seed=3)
    low, high = first
    assert low < sd < high
    # For a uniform sample the SD's standard error is about sd * 0.45 / sqrt(n); the 95% width ~ 3.9 SE.
    assert (high - low) == pytest.approx(3.92 * sd * math.sqrt((1.8 - 1) / 4) / math.sqrt(400), rel=0.25)


def _sums(pairs):
    s = Sums()
    for num, den in pairs:
        s.add(num, den)
    return s


def test_sums_of_a_mean_give_the_textbook_standard_error():
    xs = [3, 7, 1, 9, 4, 4, 6]
    s = _sums((x, 1) for x in xs)
    assert s.ratio == pytest.approx(statistics.mean(xs))
    assert s.standard_error() == pytest.approx(statistics.stdev(xs) / math.sqrt(len(xs)))


def test_sums_of_a_ratio_give_the_linearised_standard_error():
    games = [(5, 2), (9, 3), (2, 1), (8, 4), (3, 3)]
    s = _sums(games)
    ratio = sum(n for n, _ in games) / sum(d for _, d in games)
    mean_den = statistics.mean(d for _, d in games)
    z = [(n - ratio * d) / mean_den for n, d in games]
    assert s.ratio == pytest.approx(ratio)
    assert s.standard_error() == pytest.approx(statistics.stdev(z) / math.sqrt(len(games)))


def test_paired_standard_error_is_that_of_the_differences():
    a = [3, 5, 2, 8, 6, 4]
    b = [4, 5, 4, 9, 8, 4]
    cross = CrossSums()
    for x, y in zip(a, b):
        cross.add((x, 1), (y, 1))
    diffs = [y - x for x, y in zip(a, b)]
    se = paired_standard_error(_sums((x, 1) for x in a), _sums((y, 1) for y in b), cross)
    assert se == pytest.approx(statistics.stdev(diffs) / math.sqrt(len(diffs)))
    unpaired = unpaired_standard_error(_sums((x, 1) for x in a), _sums((y, 1) for y in b))
    assert se < unpaired  # the two samples move together, so pairing removes variance


def test_tallies_merge_to_the_same_sums_as_one_tally():
    games = [({"x": (i % 3, 1)}, {"h": [i % 2]}, {"peak": i}) for i in range(10)]
    whole = Tally()
    for g in games:
        whole.add(*g)
    left, right = Tally(), Tally()
    for g in games[:4]:
        left.add(*g)
    for g in games[4:]:
        right.add(*g)
    left.merge(right)
    assert left == whole
    pair = PairTally()
    pair.add({"x": (1, 1), "only_a": (1, 1)}, {"x": (2, 1)})
    assert list(pair.cross) == ["x"]

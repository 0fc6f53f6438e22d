#!/usr/bin/env python3
# Independent reference values for tests/unit/test-scale-stats.c.
# Welch's t on ln(goodput), Welch-Satterthwaite df, the t quantile and the
# two-sided p computed with mpmath (50 digits): the Student t CDF from the
# regularized incomplete beta function, F(t) = 1 - I_{df/(df+t^2)}(df/2, 1/2)/2
# for t >= 0 (Abramowitz & Stegun 26.7.1), its quantile by root finding.
# No GSL, no scipy: a second implementation to check bondcheck's.
# Run: python3 tests/data/scale/welch-reference.py
from mpmath import mp, mpf, log, exp, sqrt, betainc, findroot, fsum

mp.dps = 50

def t_cdf(t, df):
    x = df / (df + t * t)
    tail = betainc(df / 2, mpf(1) / 2, 0, x, regularized=True) / 2
    return 1 - tail if t >= 0 else tail

def t_quantile(p, df):
    return findroot(lambda t: t_cdf(t, df) - p, mpf(2))

def mean(v):
    return fsum(v) / len(v)

def sd(v):
    m = mean(v)
    return sqrt(fsum((x - m) ** 2 for x in v) / (len(v) - 1))

def sample(g, level=mpf("0.95")):
    lg = [log(mpf(x)) for x in g]
    m, s, n = mean(lg), sd(lg), len(g)
    h = t_quantile((1 + level) / 2, n - 1) * s / sqrt(n)
    return dict(geo=exp(m), lo=exp(m - h), hi=exp(m + h), mean=mean([mpf(x) for x in g]))

def welch(a, b, level=mpf("0.95")):
    la = [log(mpf(x)) for x in a]
    lb = [log(mpf(x)) for x in b]
    va, vb = sd(la) ** 2 / len(a), sd(lb) ** 2 / len(b)
    d = mean(lb) - mean(la)
    se = sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    tq = t_quantile((1 + level) / 2, df)
    t = d / se
    p = 2 * (1 - t_cdf(abs(t), df))
    return dict(speedup=exp(d), lo=exp(d - tq * se), hi=exp(d + tq * se), t=t, df=df, p=p, tq=tq)

cases = {
    "gain": ([9.40e6, 9.52e6, 9.31e6, 9.47e6, 9.44e6], [18.7e6, 18.9e6, 18.4e6, 18.8e6, 18.6e6]),
    "negative": ([157.6e6, 155.1e6, 158.9e6, 156.0e6, 157.2e6], [138.7e6, 141.2e6, 136.9e6, 139.5e6, 137.8e6]),
    "flat": ([28.1e6, 27.5e6, 28.6e6, 27.9e6, 28.3e6], [28.4e6, 27.2e6, 28.9e6, 28.0e6, 27.8e6]),
    "unequal": ([10e6, 12e6, 11e6], [20e6, 26e6, 21e6, 24e6]),
    "under-margin": ([100.0e6, 100.2e6, 99.9e6, 100.1e6, 100.0e6], [102.0e6, 102.1e6, 101.9e6, 102.2e6, 102.0e6]),
}
print("t_0.975(4) =", mp.nstr(t_quantile(mpf("0.975"), 4), 12))
print("t_0.975(8) =", mp.nstr(t_quantile(mpf("0.975"), 8), 12))
for name, (a, b) in cases.items():
    w = welch(a, b)
    sa, sb = sample(a), sample(b)
    print(name, " ".join("%s=%s" % (k, mp.nstr(v, 12)) for k, v in w.items()))
    print("  A", " ".join("%s=%s" % (k, mp.nstr(v, 12)) for k, v in sa.items()))
    print("  B", " ".join("%s=%s" % (k, mp.nstr(v, 12)) for k, v in sb.items()))

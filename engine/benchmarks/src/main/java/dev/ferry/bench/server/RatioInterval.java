package dev.ferry.bench.server;

import java.util.Arrays;
import java.util.Locale;

/**
 * What paired ratios say, one per cycle (a run's rate over its baseline's in the same cycle): their geometric mean and
 * its 95% confidence interval, from Student's t over the logarithms. On a shared machine one cycle's ratio moves by
 * several percent either way; the interval says whether a run decides a target or leaves it open.
 *
 * @param mean  the geometric mean of the ratios
 * @param low   the lower end of the interval (0 with fewer than two ratios)
 * @param high  the upper end (infinite with fewer than two ratios)
 * @param count how many ratios
 */
public record RatioInterval(double mean, double low, double high, int count) {
    /** Student's t at 97.5% for 1 to 30 degrees of freedom. */
    private static final double[] T_975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042};

    /** What {@code ratios} (each above 0) say. */
    public static RatioInterval of(double[] ratios) {
        if (ratios.length == 0 || Arrays.stream(ratios).anyMatch(r -> !(r > 0) || Double.isInfinite(r))) {
            throw new IllegalArgumentException("ratios must be finite and above 0: " + Arrays.toString(ratios));
        }
        double[] logs = Arrays.stream(ratios).map(Math::log).toArray();
        double logMean = Arrays.stream(logs).average().orElseThrow();
        if (logs.length < 2) {
            return new RatioInterval(Math.exp(logMean), 0, Double.POSITIVE_INFINITY, 1);
        }
        double squares = Arrays.stream(logs).map(l -> (l - logMean) * (l - logMean)).sum();
        double standardError = Math.sqrt(squares / (logs.length - 1) / logs.length);
        double half = tQuantile(logs.length - 1) * standardError;
        return new RatioInterval(Math.exp(logMean), Math.exp(logMean - half), Math.exp(logMean + half), logs.length);
    }

    /** Each ratio of {@code over} divided by the one of {@code under} at the same index. */
    public static double[] quotients(double[] over, double[] under) {
        if (over.length != under.length) {
            throw new IllegalArgumentException("unpaired: " + over.length + " against " + under.length + " ratios");
        }
        double[] quotients = new double[over.length];
        for (int i = 0; i < over.length; i++) {
            quotients[i] = over[i] / under[i];
        }
        return quotients;
    }

    private static double tQuantile(int degrees) {
        // Beyond the table, the first terms of t's expansion around the normal quantile (1.96).
        return degrees <= T_975.length ? T_975[degrees - 1] : 1.96 + 2.37 / degrees;
    }

    /** Whether the ratio is at least {@code floor}: met, not met, or undecided when the interval straddles it. */
    public String atLeast(double floor) {
        if (low >= floor) {
            return "met";
        }
        return high < floor ? "NOT met" : "undecided";
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", mean, low, high);
    }
}

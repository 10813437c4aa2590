package dev.ferry.strategies.allocate;

/** {@code averagely}: RocketMQ's default {@code AVG}, contiguous pages. No configuration. */
public final class AveragelyStrategyProvider extends UnconfiguredStrategyProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public AveragelyStrategyProvider() {
        super(AveragelyStrategy.NAME, AveragelyStrategy::new);
    }
}

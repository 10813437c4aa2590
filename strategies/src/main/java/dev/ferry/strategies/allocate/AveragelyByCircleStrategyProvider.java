package dev.ferry.strategies.allocate;

/** {@code averagely-by-circle}: RocketMQ's {@code AVG_BY_CIRCLE}, dealt round robin. No configuration. */
public final class AveragelyByCircleStrategyProvider extends UnconfiguredStrategyProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public AveragelyByCircleStrategyProvider() {
        super(AveragelyByCircleStrategy.NAME, AveragelyByCircleStrategy::new);
    }
}

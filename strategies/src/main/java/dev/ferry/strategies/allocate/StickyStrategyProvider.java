package dev.ferry.strategies.allocate;

/**
 * {@code sticky}: balanced like {@code averagely}, moving as few queues as possible on a membership
 * change; not in Apache RocketMQ. No configuration; each created instance keeps its own history, so
 * create one per consumer.
 */
public final class StickyStrategyProvider extends UnconfiguredStrategyProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public StickyStrategyProvider() {
        super(StickyStrategy.NAME, StickyStrategy::new);
    }
}

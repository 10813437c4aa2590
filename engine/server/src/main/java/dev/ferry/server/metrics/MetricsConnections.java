package dev.ferry.server.metrics;

import io.netty.channel.Channel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The connections of the metrics endpoint, at most {@code max} at once. A connection beyond closes the oldest one that
 * is not being answered, those that never completed a request first, then idle kept-alive ones; only when every one is
 * being answered is the newcomer refused. So connections that hold a slot without asking for anything cannot lock a
 * scraper out. Used on the endpoint's one event loop only.
 */
final class MetricsConnections {
    private static final System.Logger LOG = System.getLogger(MetricsConnections.class.getName());

    private final int max;
    /** In the order they were accepted. */
    private final Map<Channel, MetricsExchange> open = new LinkedHashMap<>();
    private long evicted;
    private long refused;

    MetricsConnections(int max) {
        this.max = max;
    }

    /**
     * Takes {@code channel} in, closing another to make room if need be.
     *
     * @return false when every connection is being answered: {@code channel} is to be closed
     */
    boolean admit(Channel channel, MetricsExchange exchange) {
        if (open.size() >= max) {
            Channel victim = oldest(held -> !held.answering() && !held.served());
            if (victim == null) {
                victim = oldest(held -> !held.answering());
            }
            if (victim == null) {
                refused++;
                if (refused == 1 || refused % 1000 == 0) {
                    LOG.log(System.Logger.Level.WARNING, "metrics endpoint: refusing a connection, {0} are being "
                            + "answered (metricsMaxConnections); {1} refused since start", open.size(), refused);
                }
                return false;
            }
            open.remove(victim);
            victim.close();
            evicted++;
            if (evicted == 1 || evicted % 1000 == 0) {
                LOG.log(System.Logger.Level.INFO, "metrics endpoint: {0} connections open (metricsMaxConnections), "
                        + "closed the oldest not being answered; {1} closed so since start", max, evicted);
            }
        }
        open.put(channel, exchange);
        channel.closeFuture().addListener(closed -> open.remove(channel));
        return true;
    }

    private Channel oldest(Predicate<MetricsExchange> closable) {
        for (Map.Entry<Channel, MetricsExchange> held : open.entrySet()) {
            if (closable.test(held.getValue())) {
                return held.getKey();
            }
        }
        return null;
    }
}

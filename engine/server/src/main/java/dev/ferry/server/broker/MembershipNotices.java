package dev.ferry.server.broker;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.header.NotifyConsumerIdsChangedRequestHeader;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * Tells every client of a consumer group to rebalance now (NOTIFY_CONSUMER_IDS_CHANGED, oneway) when a member joins,
 * leaves or goes silent, unless the group asks not to be told. The notices go out on the given executor, so that a
 * heartbeat, an expiry or a closing connection never waits for a slow client; none go out once the broker stops.
 */
final class MembershipNotices {
    private static final System.Logger LOG = System.getLogger(MembershipNotices.class.getName());
    static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(3);

    private final ConsumerGroups consumers;
    private final Function<String, Optional<SubscriptionGroupConfig>> groups;
    private final Executor sender;
    private volatile boolean stopped;

    MembershipNotices(ConsumerGroups consumers, Function<String, Optional<SubscriptionGroupConfig>> groups,
                      Executor sender) {
        this.consumers = Objects.requireNonNull(consumers, "consumers");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.sender = Objects.requireNonNull(sender, "sender");
    }

    /** Tells every client of {@code group} its members changed. */
    void changed(String group) {
        List<RemoteChannel> channels = List.copyOf(consumers.channels(group));
        if (channels.isEmpty() || stopped
                || !groups.apply(group).map(SubscriptionGroupConfig::notifiesConsumerIdsChanged).orElse(true)) {
            return;
        }
        RemotingCommand notice = RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED,
                new NotifyConsumerIdsChangedRequestHeader(group, null)).build();
        try {
            sender.execute(() -> {
                for (RemoteChannel channel : channels) {
                    try {
                        channel.invokeOneway(notice, NOTIFY_TIMEOUT);
                    } catch (RemotingException e) {
                        LOG.log(System.Logger.Level.DEBUG, "cannot notify {0}: {1}", channel, e.getMessage());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.log(System.Logger.Level.DEBUG, "not notifying group {0}: stopping", group);
        }
    }

    /** Sends no notice from now on: the broker is stopping. */
    void stop() {
        stopped = true;
    }
}

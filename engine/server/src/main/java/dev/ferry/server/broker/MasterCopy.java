package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.server.timer.TimerCheckpointBody;
import dev.ferry.server.timer.TimerStore;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A slave's copy of what its master keeps beside the commit log: topics, subscription groups, consumer offsets,
 * delay progress and timer progress, fetched with the requests Apache's slaves use (GET_ALL_TOPIC_CONFIG,
 * GET_ALL_SUBSCRIPTIONGROUP_CONFIG, GET_ALL_CONSUMER_OFFSET, GET_ALL_DELAY_OFFSET, GET_TIMER_CHECK_POINT) and put in
 * place of the slave's own (timer progress only where the master serves it). While the master is away nothing is copied, so offsets consumers commit to the slave meanwhile stay.
 */
final class MasterCopy {
    private static final System.Logger LOG = System.getLogger(MasterCopy.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final RemotingClient client;
    private final BodyCodec json;
    private final TopicConfigTable topics;
    private final SubscriptionGroupTable groups;
    private final ConsumerOffsetTable offsets;
    private final ScheduleService schedule;
    private final TimerStore timers;
    private volatile boolean failing;

    MasterCopy(RemotingClient client, BodyCodec json, TopicConfigTable topics, SubscriptionGroupTable groups,
               ConsumerOffsetTable offsets, ScheduleService schedule, TimerStore timers) {
        this.timers = timers;
        this.client = client;
        this.json = json;
        this.topics = topics;
        this.groups = groups;
        this.offsets = offsets;
        this.schedule = schedule;
    }

    /** Copies everything from the master at {@code address}; returns whether all of it came. */
    boolean copyFrom(String address) {
        try {
            fetch(address, RequestCode.GET_ALL_TOPIC_CONFIG, TopicConfigTable.Stored.class, topics::replaceWith);
            fetch(address, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, SubscriptionGroupTable.Stored.class,
                    groups::replaceWith);
            fetch(address, RequestCode.GET_ALL_CONSUMER_OFFSET, ConsumerOffsetTable.Stored.class,
                    offsets::replaceWith);
            fetch(address, RequestCode.GET_ALL_DELAY_OFFSET, ScheduleService.Stored.class, schedule::replaceWith);
            RemotingCommand timerProgress = client.invokeSync(address,
                    RemotingCommand.request(RequestCode.GET_TIMER_CHECK_POINT).build(), TIMEOUT);
            if (timerProgress.code() == ResponseCode.SUCCESS) {
                TimerCheckpointBody.decode(timerProgress.body()).ifPresent(timers::followMaster);
            }
            if (failing) {
                failing = false;
                LOG.log(System.Logger.Level.INFO, "copying from master {0} again", address);
            }
            return true;
        } catch (RuntimeException e) { // RemotingException too
            if (!failing) {
                failing = true;
                LOG.log(System.Logger.Level.WARNING, "cannot copy topics, groups and offsets from master {0}: {1}",
                        address, e.getMessage());
            }
            return false;
        }
    }

    private <T> void fetch(String address, int code, Class<T> type, Consumer<T> apply) {
        RemotingCommand response = client.invokeSync(address, RemotingCommand.request(code).build(), TIMEOUT);
        if (response.code() != ResponseCode.SUCCESS || response.body() == null) {
            throw new IllegalStateException(RequestCode.nameOf(code) + " answered " + response.code() + " "
                    + response.remark());
        }
        apply.accept(json.decode(response.body(), type));
    }
}

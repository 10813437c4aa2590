package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.PullFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.ReadOffsetType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Keeps one long-polling PULL_MESSAGE in flight per process queue of one consumer: pulls, hands what it
 * found to the consumer's {@link Sink}, and pulls again (at once, after a flow-control pause, or after an
 * error pause). Requests are asynchronous; callbacks run on remoting callback threads and delayed pulls on
 * the client's scheduler. Stops pulling a queue once it is dropped or the service is stopped.
 */
final class PullService {
    private static final System.Logger LOG = System.getLogger(PullService.class.getName());

    /** Where pulled messages go. */
    interface Sink {
        /** Whether the queue may pull more now (flow control, pause). */
        boolean mayPull(ProcessQueue queue);

        /** Messages pulled from {@code queue} and recorded in it, after the client-side filter. */
        void pulled(ProcessQueue queue, List<ReceivedMessage> messages);
    }

    private final ConsumerSettings settings;
    private final Map<String, SubscriptionFilter> filters;
    private final OffsetStore offsets;
    private final Sink sink;
    private final BrokerCalls calls;
    private final Routes routes;
    private final MessageDecoder decoder;
    private final Later later;
    private final Runnable sendHeartbeats;
    private volatile boolean stopped;

    /**
     * @param filters        the subscription of each topic read, by topic (a live map: pull consumers subscribe
     *                       later)
     * @param calls          where the pulls go
     * @param routes         the brokers' addresses
     * @param decoder        reads the messages a pull brings
     * @param later          where delayed pulls run
     * @param sendHeartbeats tells the brokers this consumer's subscriptions again, when one says it lacks them
     */
    PullService(ConsumerSettings settings, Map<String, SubscriptionFilter> filters, OffsetStore offsets, Sink sink,
                BrokerCalls calls, Routes routes, MessageDecoder decoder, Later later, Runnable sendHeartbeats) {
        this.settings = settings;
        this.filters = filters;
        this.offsets = offsets;
        this.sink = sink;
        this.calls = calls;
        this.routes = routes;
        this.decoder = decoder;
        this.later = later;
        this.sendHeartbeats = sendHeartbeats;
    }

    /** The pulls of a consumer of {@code client}. */
    static PullService of(FerryClient client, ConsumerSettings settings, Map<String, SubscriptionFilter> filters,
                          OffsetStore offsets, Sink sink) {
        return new PullService(settings, filters, offsets, sink, client.calls(), client.routes(), client.decoder(),
                client.later(), client.heartbeats()::sendToAllBrokers);
    }

    void stop() {
        stopped = true;
    }

    /** Starts pulling {@code queue}: one pull loop per queue and seek epoch. */
    void start(ProcessQueue queue) {
        pull(queue, queue.pullPosition().epoch());
    }

    /** Continues the loop of {@code epoch} after {@code delay}. */
    private void pullLater(ProcessQueue queue, int epoch, Duration delay) {
        if (stopped || queue.isDropped()) {
            return;
        }
        later.after(delay, () -> pull(queue, epoch));
    }

    /** One pull of the loop of {@code epoch}; a seek since then ended that loop (the seek started a new one). */
    private void pull(ProcessQueue queue, int epoch) {
        ProcessQueue.PullPosition position = queue.pullPosition();
        if (stopped || queue.isDropped() || position.epoch() != epoch) {
            return;
        }
        if (!sink.mayPull(queue)) {
            pullLater(queue, epoch, settings.flowControlPause());
            return;
        }
        SubscriptionFilter filter = filters.get(queue.queue().topic());
        if (filter == null) {
            return;
        }
        String address = routes.readAddress(queue.queue().brokerName()).orElse(null);
        if (address == null) {
            pullLater(queue, epoch, settings.pullErrorPause());
            return;
        }
        long commitOffset = 0;
        int sysFlag = PullFlags.SUSPEND | PullFlags.SUBSCRIPTION;
        if (settings.messageModel() == MessageModel.CLUSTERING) {
            long stored = offsets.read(queue.queue(), ReadOffsetType.READ_FROM_MEMORY);
            if (stored > 0) {
                commitOffset = stored;
                sysFlag |= PullFlags.COMMIT_OFFSET;
            }
        }
        PullMessageRequestHeader header = new PullMessageRequestHeader(settings.group(), queue.queue().topic(),
                queue.queue().queueId(), position.offset(), settings.pullBatchSize(), sysFlag, commitOffset,
                settings.suspendTimeout().toMillis(), filter.expression(), filter.subVersion(),
                filter.expressionType(), null, queue.queue().brokerName());
        RemotingCommand request = RemotingCommand.request(RequestCode.PULL_MESSAGE, header).build();
        calls.callAsync(address, request, settings.pullTimeout()).whenComplete((response, failure) -> {
            try {
                if (failure != null) {
                    if (!stopped) {
                        LOG.log(Level.DEBUG, "pull of " + queue.queue() + " failed: " + failure.getMessage());
                    }
                    pullLater(queue, position.epoch(), settings.pullErrorPause());
                } else {
                    handle(queue, position, filter, response);
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "handling the pull result of " + queue.queue() + " failed", e);
                pullLater(queue, position.epoch(), settings.pullErrorPause());
            }
        });
    }

    private void handle(ProcessQueue queue, ProcessQueue.PullPosition position, SubscriptionFilter filter,
                        RemotingCommand response) {
        switch (response.code()) {
            case ResponseCode.SUCCESS -> {
                PullMessageResponseHeader header = response.header(PullMessageResponseHeader.class);
                queue.brokerNextOffset(header.maxOffset());
                List<ReceivedMessage> messages = decoder.decodeAll(response.body(),
                        queue.queue().brokerName()).stream().filter(filter::accepts).toList();
                if (queue.pulled(position.epoch(), messages, header.nextBeginOffset()) && !messages.isEmpty()) {
                    sink.pulled(queue, messages);
                }
                pull(queue, position.epoch());
            }
            case ResponseCode.PULL_NOT_FOUND, ResponseCode.PULL_RETRY_IMMEDIATELY -> {
                PullMessageResponseHeader header = response.header(PullMessageResponseHeader.class);
                queue.brokerNextOffset(header.maxOffset());
                queue.moveTo(position.epoch(), header.nextBeginOffset());
                pull(queue, position.epoch());
            }
            case ResponseCode.PULL_OFFSET_MOVED -> {
                long next = response.header(PullMessageResponseHeader.class).nextBeginOffset();
                LOG.log(Level.INFO, "offset " + position.offset() + " of " + queue.queue()
                        + " is no longer valid; continuing at " + next);
                // the broker moved the queue (an admin's reset, or the offset fell out of the queue): what was
                // pulled before is forgotten, as with a reset the broker announces
                if (queue.isDropped() || queue.pullPosition().epoch() != position.epoch()) {
                    return;
                }
                queue.seek(next);
                offsets.update(queue.queue(), next, false);
                offsets.persist(queue.queue());
                start(queue);
            }
            default -> {
                if (response.code() == ResponseCode.SUBSCRIPTION_NOT_LATEST
                        || response.code() == ResponseCode.SUBSCRIPTION_NOT_EXIST) {
                    later.after(Duration.ZERO, sendHeartbeats);
                }
                LOG.log(Level.DEBUG, "pull of " + queue.queue() + " answered " + response.code() + " "
                        + response.remark());
                pullLater(queue, position.epoch(), settings.pullErrorPause());
            }
        }
    }
}

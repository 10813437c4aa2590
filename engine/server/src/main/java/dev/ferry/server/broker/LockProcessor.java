package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.LogPace;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.LockBatchRequestBody;
import dev.ferry.remoting.protocol.body.LockBatchResponseBody;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * LOCK_BATCH_MQ and UNLOCK_BATCH_MQ: orderly consumers taking and giving up their queues. Only a group the broker
 * knows (or may create) may lock, and only queues this broker serves (its name, a topic it has, a queue id in range);
 * other queues in the request are left out (not locked), so the lock table holds no more than groups times queues.
 * Queues beyond the table's bound ({@code maxQueueLocks}) are left out too, the answer's remark saying how many, and a
 * warning logged at most once a second.
 */
final class LockProcessor implements RequestProcessor {
    /**
     * Requests small enough to take on the event loop: all a lock does is in memory (a new group is saved later), and a
     * body this size names a consumer's few queues, decoded in microseconds. Without the hand-off an orderly
     * consumer's first pull waits one thread wake-up less each way.
     */
    static final InlineRule SMALL = request -> request.body() != null && request.body().length <= 8 * 1024;
    /** More queues than any broker serves a group in one request. */
    static final int MAX_QUEUES_PER_REQUEST = 100_000;
    private static final System.Logger LOG = System.getLogger(LockProcessor.class.getName());

    private final QueueLocks locks;
    private final SubscriptionGroupTable groups;
    private final TopicConfigTable topics;
    private final BodyCodec json;
    private final String brokerName;
    private final LogPace refusalWarnings = LogPace.perSecond();
    private final Clock clock;

    LockProcessor(QueueLocks locks, SubscriptionGroupTable groups, TopicConfigTable topics, BodyCodec json,
                  String brokerName, Clock clock) {
        this.brokerName = brokerName;
        this.clock = clock;
        this.locks = locks;
        this.groups = groups;
        this.topics = topics;
        this.json = json;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        LockBatchRequestBody body = json.decode(EntryChecks.present("body", request.body()),
                LockBatchRequestBody.class);
        String group = EntryChecks.group("consumerGroup", body.consumerGroup());
        String clientId = EntryChecks.clientId("clientId", body.clientId());
        if (body.mqSet().size() > MAX_QUEUES_PER_REQUEST) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "mqSet names " + body.mqSet().size()
                    + " queues; at most " + MAX_QUEUES_PER_REQUEST + " are taken");
        }
        if (groups.findOrCreate(group).isEmpty()) {
            throw new BadRequestException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, groups.refusal(group));
        }
        Set<MessageQueueBody> served = body.mqSet().stream().filter(this::served).collect(Collectors.toSet());
        if (request.code() == RequestCode.LOCK_BATCH_MQ) {
            QueueLocks.Granted granted = locks.lock(group, clientId, context.channel().id(), served);
            RemotingCommand.Builder answer = RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .body(json.encode(new LockBatchResponseBody(granted.locked())));
            if (granted.refused() > 0) {
                answer.remark(refusal(group, clientId, granted.refused()));
            }
            return answer.build();
        }
        locks.unlock(group, clientId, served);
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private String refusal(String group, String clientId, int refused) {
        String remark = refused + " of the queues not locked: the broker holds its most queue locks (maxQueueLocks)";
        LOG.log(refusalWarnings.level(clock.nanos()), "{0} of group {1}: {2} ({3} refused "
                + "since start)", clientId, group, remark, locks.refused());
        return remark;
    }

    private boolean served(MessageQueueBody queue) {
        return queue != null && queue.topic() != null && brokerName.equals(queue.brokerName())
                && queue.queueId() >= 0 && topics.get(queue.topic())
                .map(t -> queue.queueId() < Math.max(t.readQueueNums(), t.writeQueueNums())).orElse(false);
    }
}

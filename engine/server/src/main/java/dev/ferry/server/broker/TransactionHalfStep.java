package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.server.timer.TimerRouting;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A prepared message of a transaction is stored as a half message, in the half topic with its real topic and queue,
 * until its producer commits or rolls it back; there it goes no further along the route. Its delay or time counts
 * from the commit, but a time the commit could not take is refused now.
 */
final class TransactionHalfStep implements SendStep {
    private final SendRoute atCommit;
    private final Runnable ensureTransactionTopics;

    /**
     * @param atCommit                the route a committed message takes (its delay and timer steps)
     * @param ensureTransactionTopics creates the half and op topics when they are missing
     */
    TransactionHalfStep(SendRoute atCommit, Runnable ensureTransactionTopics) {
        this.atCommit = atCommit;
        this.ensureTransactionTopics = ensureTransactionTopics;
    }

    @Override
    public Routed apply(SendingMessage message) {
        if (!TransactionService.isPrepared(message.sysFlag())) {
            return Routed.next(message);
        }
        if (TimerRouting.ASKING_FOR_TIME.stream().anyMatch(message::has)) {
            Routed committed = atCommit.route(message.withSysFlag(SysFlags.TRANSACTION_NOT_TYPE));
            if (committed.refused()) {
                return committed;
            }
        }
        ensureTransactionTopics.run();
        return Routed.last(half(message));
    }

    /** The half message a prepared message becomes; only the transaction bits and destination change. */
    static SendingMessage half(SendingMessage prepared) {
        Map<String, String> real = new LinkedHashMap<>();
        real.put(MessageProperties.REAL_TOPIC, prepared.topic());
        real.put(MessageProperties.REAL_QUEUE_ID, Integer.toString(prepared.queueId()));
        // Not "prepared" in the store's eyes, so the half topic's queue indexes it and the check can scan it.
        return prepared.withProperties(real).to(SystemTopics.TRANSACTION_HALF_TOPIC, 0)
                .withSysFlag(prepared.sysFlag() & ~SysFlags.TRANSACTION_ROLLBACK_TYPE);
    }
}

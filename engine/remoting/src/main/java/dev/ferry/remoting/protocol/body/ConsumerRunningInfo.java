package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Map;
import java.util.Set;

/**
 * GET_CONSUMER_RUNNING_INFO answer: what one client does for a group, Apache's shape. Admin tools need
 * {@value #PROP_CONSUME_TYPE} and {@value #PROP_CONSUMER_START_TIMESTAMP} among the properties.
 *
 * @param properties   the consumer's settings and the {@code PROP_*} keys, all strings
 * @param mqTable      each queue the client holds now
 * @param mqPopTable   queues consumed by pop (never, here)
 * @param statusTable  per topic, pull and consume rates
 * @param jstack       the client's threads, when asked for
 */
public record ConsumerRunningInfo(Map<String, String> properties, Set<SubscriptionData> subscriptionSet,
                                  @JsonSerialize(using = QueueKeyedMapSerializer.class)
                                  Map<MessageQueueBody, ProcessQueueInfo> mqTable,
                                  @JsonSerialize(using = QueueKeyedMapSerializer.class)
                                  Map<MessageQueueBody, Object> mqPopTable,
                                  Map<String, ConsumeStatus> statusTable, Map<String, String> userConsumerInfo,
                                  String jstack) implements ObjectKeyedBody {

    public static final String PROP_NAMESERVER_ADDR = "PROP_NAMESERVER_ADDR";
    public static final String PROP_CONSUME_TYPE = "PROP_CONSUME_TYPE";
    public static final String PROP_CONSUME_ORDERLY = "PROP_CONSUMEORDERLY";
    public static final String PROP_THREADPOOL_CORE_SIZE = "PROP_THREADPOOL_CORE_SIZE";
    public static final String PROP_CONSUMER_START_TIMESTAMP = "PROP_CONSUMER_START_TIMESTAMP";
    public static final String PROP_CLIENT_VERSION = "PROP_CLIENT_VERSION";

    public ConsumerRunningInfo {
        properties = properties == null ? Map.of() : Map.copyOf(properties);
        subscriptionSet = subscriptionSet == null ? Set.of() : Set.copyOf(subscriptionSet);
        mqTable = mqTable == null ? Map.of() : Map.copyOf(mqTable);
        mqPopTable = mqPopTable == null ? Map.of() : Map.copyOf(mqPopTable);
        statusTable = statusTable == null ? Map.of() : Map.copyOf(statusTable);
        userConsumerInfo = userConsumerInfo == null ? Map.of() : Map.copyOf(userConsumerInfo);
    }

    /**
     * One queue the client holds.
     *
     * @param commitOffset       the offset it will commit next
     * @param cachedMsgCount     messages pulled and not yet consumed
     * @param cachedMsgSizeInMiB their size
     * @param droped             Apache's spelling: whether the client gave the queue up
     */
    public record ProcessQueueInfo(long commitOffset, long cachedMsgMinOffset, long cachedMsgMaxOffset,
                                   int cachedMsgCount, int cachedMsgSizeInMiB, long transactionMsgMinOffset,
                                   long transactionMsgMaxOffset, int transactionMsgCount, boolean locked,
                                   long tryUnlockTimes, long lastLockTimestamp, boolean droped,
                                   long lastPullTimestamp, long lastConsumeTimestamp) {
    }

    /**
     * A topic's rates at the client over the last minute; {@code consumeFailedMsgs} over the last hour.
     *
     * @param pullRT    average pull round trip, ms
     * @param consumeRT average listener time, ms
     */
    public record ConsumeStatus(double pullRT, double pullTPS, double consumeRT, double consumeOKTPS,
                                double consumeFailedTPS, long consumeFailedMsgs) {
    }
}

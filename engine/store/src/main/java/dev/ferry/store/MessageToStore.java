package dev.ferry.store;

import dev.ferry.format.MessageProperties;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;

/**
 * One message as the broker hands it to the store. The store assigns the queue offset, the physical offset and the
 * store timestamp. The consume-queue tag code is not an input: it is derived from the {@code TAGS} property so that
 * consume queues can always be rebuilt from the commit log alone.
 *
 * @param topic                     topic name (UTF-8; up to 127 bytes is stored as V1, longer as V2)
 * @param queueId                   queue id, &gt;= 0
 * @param flag                      the application's flag
 * @param body                      the body bytes as they travel (possibly compressed; see sysFlag)
 * @param properties                properties in the stored format ({@code name\u0001value\u0002...})
 * @param sysFlag                   RocketMQ sys flag; the host bits 0x10/0x20 are set by the store from the hosts
 * @param bornTimestamp             when the producer created the message
 * @param bornHost                  the producer's address
 * @param storeHost                 this broker's address
 * @param reconsumeTimes            how often it was consumed before
 * @param preparedTransactionOffset commit-log offset of the half message for transactional end messages, else 0
 */
public record MessageToStore(String topic, int queueId, int flag, byte[] body, String properties, int sysFlag,
                             long bornTimestamp, InetSocketAddress bornHost, InetSocketAddress storeHost,
                             int reconsumeTimes, long preparedTransactionOffset) {

    public MessageToStore {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(bornHost, "bornHost");
        Objects.requireNonNull(storeHost, "storeHost");
        properties = MessageProperties.normalize(Objects.requireNonNull(properties, "properties"));
    }

    /** A builder with loopback hosts and empty properties. */
    public static Builder builder(String topic, int queueId, byte[] body) {
        return new Builder(topic, queueId, body);
    }

    /** Builds {@link MessageToStore} values. */
    public static final class Builder {
        private final String topic;
        private final int queueId;
        private final byte[] body;
        private int flag;
        private String properties = "";
        private int sysFlag;
        private long bornTimestamp;
        private InetSocketAddress bornHost = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private InetSocketAddress storeHost = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
        private int reconsumeTimes;
        private long preparedTransactionOffset;

        private Builder(String topic, int queueId, byte[] body) {
            this.topic = topic;
            this.queueId = queueId;
            this.body = body;
        }

        public Builder flag(int value) {
            this.flag = value;
            return this;
        }

        public Builder properties(String value) {
            this.properties = value;
            return this;
        }

        public Builder properties(Map<String, String> value) {
            this.properties = MessageProperties.format(value);
            return this;
        }

        public Builder sysFlag(int value) {
            this.sysFlag = value;
            return this;
        }

        public Builder bornTimestamp(long value) {
            this.bornTimestamp = value;
            return this;
        }

        public Builder bornHost(InetSocketAddress value) {
            this.bornHost = value;
            return this;
        }

        public Builder storeHost(InetSocketAddress value) {
            this.storeHost = value;
            return this;
        }

        public Builder reconsumeTimes(int value) {
            this.reconsumeTimes = value;
            return this;
        }

        public Builder preparedTransactionOffset(long value) {
            this.preparedTransactionOffset = value;
            return this;
        }

        public MessageToStore build() {
            return new MessageToStore(topic, queueId, flag, body, properties, sysFlag, bornTimestamp, bornHost,
                storeHost, reconsumeTimes, preparedTransactionOffset);
        }
    }
}

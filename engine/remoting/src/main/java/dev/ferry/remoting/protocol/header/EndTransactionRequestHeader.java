package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** END_TRANSACTION request; {@code commitOrRollback} is 8 (commit), 12 (rollback) or 0 (unknown). */
public record EndTransactionRequestHeader(
        String topic,
        @Required String producerGroup,
        long tranStateTableOffset,
        long commitLogOffset,
        int commitOrRollback,
        Boolean fromTransactionCheck,
        @Required String msgId,
        String transactionId,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}

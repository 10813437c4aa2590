package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;

/** CHECK_TRANSACTION_STATE request (broker to producer). */
public record CheckTransactionStateRequestHeader(
        String topic,
        long tranStateTableOffset,
        long commitLogOffset,
        String msgId,
        String transactionId,
        String offsetMsgId,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}

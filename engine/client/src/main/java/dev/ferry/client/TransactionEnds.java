package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.format.OffsetMessageId;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.header.CheckTransactionStateRequestHeader;
import dev.ferry.remoting.protocol.header.EndTransactionRequestHeader;
import java.lang.System.Logger.Level;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Tells brokers how a transactional producer's half messages end (END_TRANSACTION, oneway: 8 commit,
 * 12 rollback, 0 unknown), right after the local transaction and again whenever a broker checks back
 * (CHECK_TRANSACTION_STATE), which the producer's {@link TransactionChecker} answers on this object's own
 * thread. A lost END_TRANSACTION is harmless: the broker checks back.
 */
final class TransactionEnds implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TransactionEnds.class.getName());

    private final FerryClient client;
    private final ProducerConfig config;
    private final TransactionChecker checker;
    private final ExecutorService checks;

    TransactionEnds(FerryClient client, ProducerConfig config, TransactionChecker checker) {
        this.client = client;
        this.config = config;
        this.checker = checker;
        this.checks = Executors.newSingleThreadExecutor(client.threads());
    }

    /** Ends the transaction of a half message that was just stored. */
    void end(SendResult half, TransactionState state) {
        String broker = half.messageQueue().brokerName();
        String address = client.routes().brokerAddress(broker).orElse(null);
        if (address == null) {
            LOG.log(Level.WARNING, "no address for " + broker + "; it will check " + half.msgId() + " back");
            return;
        }
        EndTransactionRequestHeader header = new EndTransactionRequestHeader(half.messageQueue().topic(),
                config.group(), half.queueOffset(), commitLogOffset(half.offsetMsgId()), state.wireCode(), false,
                half.msgId(), half.msgId(), broker);
        try {
            client.remoting().invokeOneway(address, RemotingCommand.request(RequestCode.END_TRANSACTION, header)
                    .oneway(true).build(), config.sendTimeout());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "END_TRANSACTION of " + half.msgId() + " was not sent; the broker will check it "
                    + "back: " + e.getMessage());
        }
    }

    /** The commit-log offset an offset message id names. */
    static long commitLogOffset(String offsetMsgId) {
        return OffsetMessageId.decode(offsetMsgId).physicalOffset();
    }

    /** Asks the checker about a half message and answers the broker on {@code channel}. */
    void check(CheckTransactionStateRequestHeader header, ReceivedMessage message, RemoteChannel channel) {
        try {
            checks.execute(() -> answer(header, message, channel));
        } catch (RejectedExecutionException e) {
            // closing: the broker checks again later
        }
    }

    private void answer(CheckTransactionStateRequestHeader header, ReceivedMessage message, RemoteChannel channel) {
        TransactionState state;
        try {
            state = checker.check(message);
        } catch (Exception e) {
            LOG.log(Level.WARNING, "transaction check of " + message.msgId() + " failed", e);
            state = TransactionState.UNKNOWN;
        }
        TransactionState answer = state == null ? TransactionState.UNKNOWN : state;
        EndTransactionRequestHeader end = new EndTransactionRequestHeader(header.topic(), config.group(),
                header.tranStateTableOffset(), header.commitLogOffset(), answer.wireCode(), true, header.msgId(),
                header.transactionId(), header.brokerName());
        try {
            channel.invokeOneway(RemotingCommand.request(RequestCode.END_TRANSACTION, end).oneway(true).build(),
                    config.sendTimeout());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "answering the transaction check of " + message.msgId() + " failed: "
                    + e.getMessage());
        }
    }

    @Override
    public void close() {
        checks.shutdown();
    }
}

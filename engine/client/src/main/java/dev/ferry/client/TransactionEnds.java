package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.RetriableException;
import dev.ferry.api.SendResult;
import dev.ferry.format.OffsetMessageId;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.CheckTransactionStateRequestHeader;
import dev.ferry.remoting.protocol.header.EndTransactionRequestHeader;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
    private static final int REMEMBERED_ENDS = 100_000;

    private final FerryClient client;
    private final ProducerConfig config;
    private final TransactionChecker checker;
    private final ExecutorService checks;
    /** Traces each end; {@code null} when the producer does not trace. */
    private final TransactionTraces traces;
    /** The half messages this client ended lately, by broker and commit-log offset; the eldest are forgotten. */
    private final Map<String, TransactionState> ended = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TransactionState> eldest) {
            return size() > REMEMBERED_ENDS;
        }
    };

    /**
     * @param traces traces each end, or null
     */
    TransactionEnds(FerryClient client, ProducerConfig config, TransactionChecker checker, TransactionTraces traces) {
        this.client = client;
        this.config = config;
        this.checker = checker;
        this.traces = traces;
        this.checks = Executors.newSingleThreadExecutor(client.threads());
    }

    /** Ends the transaction of {@code message}, whose half message {@code half} was just stored. */
    void end(Message message, SendResult half, TransactionState state) {
        String broker = half.messageQueue().brokerName();
        String address = client.routes().brokerAddress(broker).orElse(null);
        if (traces != null) {
            traces.ended(message, half.msgId(), address, state);
        }
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

    /**
     * Ends the transaction of {@code half} and waits until the broker confirms the decision is stored. Ending a half
     * message this client already ended changes nothing: an Apache broker records decisions a few seconds late and
     * would deliver a message committed twice.
     *
     * @throws FerryException when the broker cannot be reached or refuses (the half message is then undecided)
     */
    void endConfirmed(HalfMessage half, TransactionState state) {
        if (state == TransactionState.UNKNOWN) {
            throw new IllegalArgumentException("a transaction ends in COMMIT or ROLLBACK, not UNKNOWN");
        }
        String key = half.brokerName() + "@" + half.commitLogOffset();
        synchronized (ended) {
            if (ended.containsKey(key)) {
                return;
            }
        }
        String address = client.routes().brokerAddress(half.brokerName())
                .or(() -> Optional.ofNullable(client.routes().masterAddresses().get(half.brokerName())))
                .orElseThrow(() -> new RetriableException("no master address for broker " + half.brokerName()
                        + " to end the transaction of " + half.msgId()));
        EndTransactionRequestHeader header = new EndTransactionRequestHeader(half.topic(), config.group(),
                half.queueOffset(), half.commitLogOffset(), state.wireCode(), false, half.msgId(), half.msgId(),
                half.brokerName());
        RemotingCommand response;
        try {
            response = client.remoting().invokeSync(address, RemotingCommand.request(RequestCode.END_TRANSACTION,
                    header).build(), config.sendTimeout());
        } catch (RuntimeException e) {
            throw WireErrors.fromFailure(e, "END_TRANSACTION of " + half.msgId() + " at " + address);
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw WireErrors.fromResponse(response, "END_TRANSACTION of " + half.msgId() + " at " + address);
        }
        synchronized (ended) {
            ended.put(key, state);
        }
        if (traces != null) {
            traces.ended(half, address, state);
        }
    }

    /** Whether this client ended {@code half}'s transaction (within its memory of the last ones). */
    boolean ended(HalfMessage half) {
        synchronized (ended) {
            return ended.containsKey(half.brokerName() + "@" + half.commitLogOffset());
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
        if (traces != null) {
            traces.checked(message, channel.remoteAddress(), answer);
        }
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

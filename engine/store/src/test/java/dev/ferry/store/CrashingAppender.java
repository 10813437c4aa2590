package dev.ferry.store;

import dev.ferry.format.MessageProperties;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Child JVM for {@link SigkillRecoveryTest}: appends with SYNC_FLUSH until killed and prints
 * {@code ACK <round> <seq> <physicalOffset> <queueId> <queueOffset> <size>} after each append returned.
 */
public final class CrashingAppender {
    static final String TOPIC = "Crash";
    static final int QUEUES = 3;

    private CrashingAppender() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int round = Integer.parseInt(args[1]);
        PrintStream out = System.out;
        try (MessageStore store = MessageStore.builder(SigkillRecoveryTest.config(dir)).open()) {
            out.println("READY " + store.recoveryReport().validEndOffset());
            out.flush();
            for (int seq = 0; ; seq++) {
                AppendResult result = store.append(message(round, seq));
                if (result.status() != AppendStatus.PUT_OK) {
                    out.println("FAIL " + result.status() + " " + result.detail());
                    out.flush();
                    return;
                }
                out.println("ACK " + round + " " + seq + " " + result.physicalOffset() + " " + (seq % QUEUES) + " "
                    + result.queueOffset() + " " + result.size());
                out.flush();
            }
        }
    }

    /** The message a round and sequence number stand for: the parent rebuilds it to compare bytes. */
    static MessageToStore message(int round, int seq) {
        long seed = round * 1_000_003L + seq;
        int length = 64 + (int) Math.floorMod(seed * 7919, 3000L);
        return MessageToStore.builder(TOPIC, seq % QUEUES, TestMessages.body(seed, length))
            .properties(MessageProperties.KEYS + MessageProperties.NAME_VALUE_SEPARATOR + "r" + round + "s" + seq
                + MessageProperties.PROPERTY_SEPARATOR + MessageProperties.TAGS + MessageProperties.NAME_VALUE_SEPARATOR
                + "t" + seq % 4 + MessageProperties.PROPERTY_SEPARATOR)
            .bornTimestamp(seed)
            .bornHost(TestMessages.BORN_HOST)
            .storeHost(TestMessages.STORE_HOST)
            .build();
    }
}

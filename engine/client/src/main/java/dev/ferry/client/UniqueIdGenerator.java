package dev.ferry.client;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the message ids producers put in {@code UNIQ_KEY}, in RocketMQ's layout: client IPv4 (4 bytes),
 * process id (2), a per-generator random (4), milliseconds since the generator started (4), counter (2),
 * as 32 upper-case hex characters. One per {@link FerryClient}; thread-safe.
 */
final class UniqueIdGenerator {
    private final byte[] prefix;
    private final Clock clock;
    private final long startMillis;
    private final AtomicInteger counter = new AtomicInteger();

    UniqueIdGenerator(String clientIp, Clock clock) {
        ByteBuffer fixed = ByteBuffer.allocate(10);
        fixed.put(LocalAddress.ipv4Bytes(clientIp));
        fixed.putShort((short) ProcessHandle.current().pid());
        fixed.putInt(ThreadLocalRandom.current().nextInt());
        this.prefix = fixed.array();
        this.clock = clock;
        this.startMillis = clock.millis();
    }

    String next() {
        ByteBuffer id = ByteBuffer.allocate(16);
        id.put(prefix);
        id.putInt((int) (clock.millis() - startMillis));
        id.putShort((short) counter.getAndIncrement());
        return HexFormat.of().withUpperCase().formatHex(id.array());
    }
}

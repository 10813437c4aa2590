package dev.ferry.bench.store;

import dev.ferry.store.MessageToStore;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

/** The message every store benchmark appends: 1 KiB body, a tag and a key, loopback hosts. */
final class BenchmarkMessages {
    static final int BODY_SIZE = 1024;

    private BenchmarkMessages() {
    }

    static MessageToStore oneKibMessage(int queueId) {
        byte[] body = new byte[BODY_SIZE];
        Arrays.fill(body, (byte) 'f');
        return MessageToStore.builder("BenchTopic", queueId, body)
            .properties("TAGS\u0001bench\u0002KEYS\u0001k\u0002")
            .bornHost(new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000))
            .storeHost(new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911))
            .build();
    }
}

package dev.ferry.bench.faults;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * An Apache RocketMQ 5.3.3 broker of a fault run, in a JVM of its own, from the broker.conf given as its argument: the
 * same file a Ferry broker of the run reads, its keys applied to Apache's three config objects as Apache's own
 * launcher applies them (and {@code haMasterAddress} once more after the start: see below). Prints
 * {@code Apache broker ready} once it serves. (The run's Apache name servers are the
 * cluster tests' {@link dev.ferry.client.cluster.ApacheNodeMain}.)
 */
public final class ApacheFaultNode {
    private ApacheFaultNode() {
    }

    public static void main(String[] args) throws Exception {
        // as Apache's launchers do: without it requests declare protocol version 0
        System.setProperty("rocketmq.remoting.version", Integer.toString(MQVersion.CURRENT_VERSION));
        Properties file = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            file.load(in);
        }
        BrokerConfig broker = new BrokerConfig();
        NettyServerConfig netty = new NettyServerConfig();
        MessageStoreConfig store = new MessageStoreConfig();
        MixAll.properties2Object(file, broker);
        MixAll.properties2Object(file, netty);
        MixAll.properties2Object(file, store);
        BrokerController controller = new BrokerController(broker, netty, new NettyClientConfig(), store);
        if (!controller.initialize()) {
            throw new IllegalStateException("broker did not initialize");
        }
        controller.start();
        if (store.getBrokerRole() == BrokerRole.SLAVE && store.getHaMasterAddress() != null) {
            // Apache 5.3.3 hands a configured haMasterAddress to the HA client during initialize(), before the store's
            // start() makes that client, so the address is dropped; and having one configured, the broker no longer
            // takes the master's HA address from the name server either: its slave would never replicate. Handed
            // again once the client exists, as Apache means it to be.
            controller.getMessageStore().updateHaMasterAddress(store.getHaMasterAddress());
        }
        System.out.println("Apache broker ready");
        System.out.flush();
        Thread.currentThread().join();
    }
}

package dev.ferry.bench.server;

import dev.ferry.client.peer.ClientSuiteBrokerMain;
import java.nio.file.Path;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Runs an Apache RocketMQ 5.3.3 name server and broker in this JVM, bound to 127.0.0.1, with
 * the same store settings the harness gives Ferry. Start it with {@code -Duser.home=DIR}: some
 * of Apache's defaults live under the home directory.
 *
 * <p>Arguments: {@code namesrvPort brokerPort haPort storeDir commitLogSegmentBytes [flushDiskType [USER PASSWORD]]},
 * the flush {@code ASYNC_FLUSH} (the default) or {@code SYNC_FLUSH}; with a user and password, ACL 2.0 is on
 * (authentication and authorization) with that first super user. TLS is switched by Apache's system properties
 * ({@code tls.server.mode} and the rest) on the JVM's command line.
 */
public final class ApachePeerMain {
    private ApachePeerMain() {
    }

    public static void main(String[] allArgs) throws Exception {
        // an optional --metrics-port=N anywhere: Apache's Prometheus exporter on that port
        int metricsPort = java.util.Arrays.stream(allArgs).filter(a -> a.startsWith("--metrics-port="))
                .mapToInt(a -> Integer.parseInt(a.substring("--metrics-port=".length()))).findFirst().orElse(-1);
        String[] args = java.util.Arrays.stream(allArgs).filter(a -> !a.startsWith("--metrics-port="))
                .toArray(String[]::new);
        int namesrvPort = Integer.parseInt(args[0]);
        int brokerPort = Integer.parseInt(args[1]);
        int haPort = Integer.parseInt(args[2]);
        Path storeDir = Path.of(args[3]);
        int segmentBytes = Integer.parseInt(args[4]);
        FlushDiskType flush = args.length > 5 ? FlushDiskType.valueOf(args[5]) : FlushDiskType.ASYNC_FLUSH;
        // As Apache's own launchers do: without it commands declare version 0 and the name server
        // reads registrations in the pre-3.0.11 format, dropping every topic.
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));

        NettyServerConfig namesrvNetty = new NettyServerConfig();
        namesrvNetty.setBindAddress("127.0.0.1");
        namesrvNetty.setListenPort(namesrvPort);
        NamesrvController namesrv = new NamesrvController(new NamesrvConfig(), namesrvNetty);
        if (!namesrv.initialize()) {
            throw new IllegalStateException("the Apache name server did not initialize");
        }
        namesrv.start();

        BrokerConfig broker = new BrokerConfig();
        broker.setBrokerName("broker-a");
        broker.setBrokerIP1("127.0.0.1");
        broker.setBrokerIP2("127.0.0.1");
        broker.setNamesrvAddr("127.0.0.1:" + namesrvPort);
        broker.setAutoCreateTopicEnable(true);
        broker.setEnablePropertyFilter(true);
        if (metricsPort > 0) {
            broker.setMetricsExporterType(org.apache.rocketmq.common.metrics.MetricsExporterType.PROM);
            broker.setMetricsPromExporterHost("127.0.0.1");
            broker.setMetricsPromExporterPort(metricsPort);
        }
        NettyServerConfig brokerNetty = new NettyServerConfig();
        brokerNetty.setBindAddress("127.0.0.1");
        brokerNetty.setListenPort(brokerPort);
        MessageStoreConfig store = new MessageStoreConfig();
        store.setStorePathRootDir(storeDir.resolve("store").toString());
        store.setStorePathCommitLog(storeDir.resolve("store").resolve("commitlog").toString());
        store.setMappedFileSizeCommitLog(segmentBytes);
        store.setFlushDiskType(flush);
        store.setHaListenPort(haPort);
        BrokerController controller = args.length > 7
                ? new BrokerController(broker, brokerNetty, new NettyClientConfig(), store,
                        ClientSuiteBrokerMain.acl(storeDir.resolve("auth").toFile(), "DefaultCluster", args[6],
                                args[7]))
                : new BrokerController(broker, brokerNetty, new NettyClientConfig(), store);
        if (!controller.initialize()) {
            throw new IllegalStateException("the Apache broker did not initialize");
        }
        controller.start();
        System.out.println("Apache RocketMQ started");
        Thread.currentThread().join();
    }
}

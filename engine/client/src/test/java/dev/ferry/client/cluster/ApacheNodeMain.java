package dev.ferry.client.cluster;

import java.io.File;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * An Apache RocketMQ 5.3.3 name server alone or broker alone in a child JVM ({@link ClusterNode}), on 127.0.0.1,
 * with small files. Arguments: {@code namesrv DIR PORT} or {@code broker DIR NAMESRV_ADDR BROKER_NAME CLUSTER PORT},
 * then optionally {@code slave} for a slave (brokerId 1, reading allowed) or {@code sync-master} for a SYNC_MASTER
 * rather than an ASYNC_MASTER, and then a commit-log file size other than {@value #COMMIT_LOG_SIZE} bytes.
 * Prints {@code ready} once it runs; runs until killed.
 */
public final class ApacheNodeMain {
    /** The commit-log file size of the brokers it runs. */
    public static final int COMMIT_LOG_SIZE = 16 * 1024 * 1024;

    private ApacheNodeMain() {
    }

    /** An Apache store under {@code dir} with small files: commit-log files of {@code commitLogSize} bytes. */
    public static MessageStoreConfig smallStore(File dir, int commitLogSize, int haPort) {
        MessageStoreConfig store = new MessageStoreConfig();
        String root = new File(dir, "store").getPath();
        store.setStorePathRootDir(root);
        store.setStorePathCommitLog(new File(root, "commitlog").getPath());
        store.setMappedFileSizeCommitLog(commitLogSize);
        store.setMappedFileSizeConsumeQueue(30_000 * 20);
        store.setMaxIndexNum(10_000);
        store.setMaxHashSlotNum(2_500);
        store.setHaListenPort(haPort);
        return store;
    }

    public static void main(String[] args) throws Exception {
        // Apache's launchers set this; without it a broker registers as protocol version 0.
        System.setProperty("rocketmq.remoting.version", Integer.toString(MQVersion.CURRENT_VERSION));
        File dir = new File(args[1]);
        if (args[0].equals("namesrv")) {
            NamesrvConfig config = new NamesrvConfig();
            config.setKvConfigPath(new File(dir, "kvConfig.json").getPath());
            config.setConfigStorePath(new File(dir, "namesrv.properties").getPath());
            NettyServerConfig netty = new NettyServerConfig();
            netty.setBindAddress("127.0.0.1");
            netty.setListenPort(Integer.parseInt(args[2]));
            NamesrvController namesrv = new NamesrvController(config, netty, new NettyClientConfig());
            if (!namesrv.initialize()) {
                throw new IllegalStateException("name server did not initialize");
            }
            namesrv.start();
        } else {
            int port = Integer.parseInt(args[5]);
            BrokerConfig config = new BrokerConfig();
            config.setNamesrvAddr(args[2]);
            config.setBrokerName(args[3]);
            config.setBrokerClusterName(args[4]);
            config.setBrokerIP1("127.0.0.1");
            config.setBrokerIP2("127.0.0.1");
            config.setAutoCreateTopicEnable(true);
            config.setRegisterNameServerPeriod(10_000); // Apache's least
            String role = args.length > 6 ? args[6] : "master";
            boolean slave = role.equals("slave");
            if (slave) {
                config.setBrokerId(1);
                config.setSlaveReadEnable(true);
            }
            NettyServerConfig netty = new NettyServerConfig();
            netty.setBindAddress("127.0.0.1");
            netty.setListenPort(port);
            MessageStoreConfig store = smallStore(dir, args.length > 7 ? Integer.parseInt(args[7]) : COMMIT_LOG_SIZE,
                    port + 1);
            if (slave) {
                store.setBrokerRole(BrokerRole.SLAVE);
            } else if (role.equals("sync-master")) {
                store.setBrokerRole(BrokerRole.SYNC_MASTER);
            }
            BrokerController broker = new BrokerController(config, netty, new NettyClientConfig(), store);
            if (!broker.initialize()) {
                throw new IllegalStateException("broker did not initialize");
            }
            broker.start();
        }
        System.out.println("Apache " + args[0] + " ready");
        System.out.flush();
        Thread.currentThread().join();
    }
}

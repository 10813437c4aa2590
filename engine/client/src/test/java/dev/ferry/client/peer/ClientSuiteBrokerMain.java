package dev.ferry.client.peer;

import java.io.File;
import dev.ferry.client.cluster.ApacheNodeMain;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Runs an Apache RocketMQ 5.3.3 name server and broker in a child JVM started by {@link ApachePeer}.
 * Arguments: working directory, name-server port, broker port, HA port, and optionally {@code secured USER PASSWORD} (ACL 2.0 with that super user). Prints {@code STARTED} once both
 * controllers run; the parent then waits until the broker's routes are visible. Runs until killed.
 */
public final class ClientSuiteBrokerMain {

    private ClientSuiteBrokerMain() {
    }

    /**
     * ACL 2.0 of an Apache broker of {@code clusterName}, both checks on, a first super user, kept in {@code authDir}
     * (also the benchmarks' Apache broker's).
     */
    public static AuthConfig acl(File authDir, String clusterName, String user, String password) {
        AuthConfig auth = new AuthConfig();
        auth.setConfigName("peer-" + System.nanoTime()); // Apache caches its auth objects by this name, JVM-wide
        auth.setClusterName(clusterName);
        auth.setAuthConfigPath(authDir.getPath());
        auth.setAuthenticationEnabled(true);
        auth.setAuthorizationEnabled(true);
        auth.setAuthenticationMetadataProvider(
                "org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider");
        auth.setAuthorizationMetadataProvider(
                "org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider");
        auth.setInitAuthenticationUser("{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}");
        return auth;
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int namesrvPort = Integer.parseInt(args[1]);
        int brokerPort = Integer.parseInt(args[2]);
        int haPort = Integer.parseInt(args[3]);
        // Apache's launchers set this; without it the broker registers as protocol version 0 and the name
        // server reads its topic list with the pre-3.0.11 body format (and finds none).
        System.setProperty("rocketmq.remoting.version", Integer.toString(MQVersion.CURRENT_VERSION));

        NamesrvConfig namesrvConfig = new NamesrvConfig();
        namesrvConfig.setKvConfigPath(new File(dir, "namesrv/kvConfig.json").getPath());
        namesrvConfig.setConfigStorePath(new File(dir, "namesrv/namesrv.properties").getPath());
        NettyServerConfig namesrvNetty = new NettyServerConfig();
        namesrvNetty.setBindAddress("127.0.0.1");
        namesrvNetty.setListenPort(namesrvPort);
        NamesrvController namesrv = new NamesrvController(namesrvConfig, namesrvNetty, new NettyClientConfig());
        if (!namesrv.initialize()) {
            throw new IllegalStateException("name server did not initialize");
        }
        namesrv.start();

        BrokerConfig brokerConfig = new BrokerConfig();
        brokerConfig.setBrokerName("broker-a");
        brokerConfig.setBrokerClusterName("DefaultCluster");
        brokerConfig.setBrokerIP1("127.0.0.1");
        brokerConfig.setBrokerIP2("127.0.0.1");
        brokerConfig.setNamesrvAddr("127.0.0.1:" + namesrvPort);
        brokerConfig.setAutoCreateTopicEnable(true);
        brokerConfig.setEnablePropertyFilter(true);
        // Check back undecided transactions after 2 s instead of 6 s, every second instead of every 30 s; write
        // the "transaction ended" op records every 200 ms (not 3 s) so that the check sees them first.
        brokerConfig.setTransactionTimeOut(2_000);
        brokerConfig.setTransactionCheckInterval(1_000);
        brokerConfig.setTransactionOpBatchInterval(200);
        NettyServerConfig brokerNetty = new NettyServerConfig();
        brokerNetty.setBindAddress("127.0.0.1");
        brokerNetty.setListenPort(brokerPort);
        MessageStoreConfig store = ApacheNodeMain.smallStore(dir, 64 * 1024 * 1024, haPort);
        BrokerController broker = args.length > 4 && args[4].equals("secured")
                ? new BrokerController(brokerConfig, brokerNetty, new NettyClientConfig(), store,
                        acl(new File(dir, "auth"), brokerConfig.getBrokerClusterName(), args[5], args[6]))
                : new BrokerController(brokerConfig, brokerNetty, new NettyClientConfig(), store);
        if (!broker.initialize()) {
            throw new IllegalStateException("broker did not initialize");
        }
        broker.start();
        System.out.println("STARTED");
        System.out.flush();
        Thread.currentThread().join();
    }
}

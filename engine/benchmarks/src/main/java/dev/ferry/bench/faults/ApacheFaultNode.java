package dev.ferry.bench.faults;

import java.io.File;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * An Apache RocketMQ 5.3.3 name server or broker of a fault run, in a JVM of its own. {@code namesrv PORT DIR} runs a
 * name server on 127.0.0.1; {@code broker FILE} runs a broker from the same broker.conf a Ferry broker of the run
 * reads, its keys applied to Apache's three config objects as Apache's own launcher applies them. Prints
 * {@code Apache ... ready} once it serves.
 */
public final class ApacheFaultNode {
    private ApacheFaultNode() {
    }

    public static void main(String[] args) throws Exception {
        // as Apache's launchers do: without it requests declare protocol version 0
        System.setProperty("rocketmq.remoting.version", Integer.toString(MQVersion.CURRENT_VERSION));
        if (args[0].equals("namesrv")) {
            File dir = new File(args[2]);
            NamesrvConfig config = new NamesrvConfig();
            config.setKvConfigPath(new File(dir, "kvConfig.json").getPath());
            config.setConfigStorePath(new File(dir, "namesrv.properties").getPath());
            NettyServerConfig netty = new NettyServerConfig();
            netty.setBindAddress("127.0.0.1");
            netty.setListenPort(Integer.parseInt(args[1]));
            NamesrvController namesrv = new NamesrvController(config, netty, new NettyClientConfig());
            if (!namesrv.initialize()) {
                throw new IllegalStateException("name server did not initialize");
            }
            namesrv.start();
            System.out.println("Apache name server ready");
        } else {
            Properties file = new Properties();
            try (Reader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8)) {
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
            System.out.println("Apache broker ready");
        }
        System.out.flush();
        Thread.currentThread().join();
    }
}

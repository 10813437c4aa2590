package dev.ferry.server.cli;

import dev.ferry.format.SystemTopics;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.broker.BrokerConfig;
import dev.ferry.server.broker.BrokerRole;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ferry-server broker}: a broker alone, registering with the name servers it is given. */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Runs a broker alone, registered with every name server given.")
final class BrokerCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options;

    @Option(names = "--namesrv-addr", description = "Name servers to register with: host:port[;host:port...] "
            + "(config key namesrvAddr; required here or there).")
    String nameServers;

    @Option(names = "--broker-name", description = "Its broker group's name (default broker-a; brokerName).")
    String brokerName;

    @Option(names = "--broker-id", description = "0 for a master (default), 1 and up for slaves (brokerId).")
    Long brokerId;

    @Option(names = "--broker-role", description = "ASYNC_MASTER (default), SYNC_MASTER or SLAVE (brokerRole).")
    String brokerRole;

    @Option(names = "--cluster-name", description = "Its cluster (default "
            + SystemTopics.DEFAULT_CLUSTER + "; brokerClusterName).")
    String clusterName;

    @Option(names = "--broker-port", description = "Port to listen on (default 10911; listenPort).")
    Integer brokerPort;

    @Option(names = "--ha-port", description = "Port a master serves its slaves on (haListenPort; a SYNC_MASTER's "
            + "defaults to the broker port + 1, an ASYNC_MASTER opens none unless given).")
    Integer haPort;

    @Option(names = "--plugin-dir", description = "Directory of plugin jars (filters, strategies).")
    Path pluginDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return ServerRun.untilStopped(spec, options, this::config, "ferry-broker", server -> {
            BrokerConfig broker = server.config().broker();
            return String.format("Ferry broker ready: %s id %d (%s) of cluster %s at %s, registered with %s, store %s",
                    broker.brokerName(), broker.brokerId(), broker.brokerRole(), broker.clusterName(),
                    server.broker().address(), String.join(";", broker.nameServers()),
                    server.config().storeDir().toAbsolutePath());
        });
    }

    /** Defaults, then the config file, then flags. */
    FerryServerConfig config() {
        return options.config(spec, FerryServerConfig.Role.BROKER, flags -> {
            if (nameServers != null) {
                flags.nameServers(FerryServerConfig.parseNameServers(nameServers));
            }
            if (brokerName != null) {
                flags.brokerName(brokerName);
            }
            if (clusterName != null) {
                flags.clusterName(clusterName);
            }
            if (brokerPort != null) {
                flags.brokerPort(brokerPort);
            }
            if (pluginDir != null) {
                flags.pluginDir(pluginDir);
            }
            flags.broker(b -> {
                if (brokerId != null) {
                    b.brokerId(brokerId);
                }
                if (brokerRole != null) {
                    b.brokerRole(BrokerRole.parse(brokerRole));
                }
                if (haPort != null) {
                    b.haPort(haPort);
                }
            });
        });
    }
}

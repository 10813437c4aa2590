package dev.ferry.server.cli;

import dev.ferry.server.FerryServerConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ferry-server namesrv}: a name server alone, which brokers elsewhere register with. */
@Command(name = "namesrv", mixinStandardHelpOptions = true,
        description = "Runs a name server alone; brokers register with it, clients ask it for routes.")
final class NameServerCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options;

    @Option(names = "--port", description = "Port to listen on (default 9876; config key listenPort).")
    Integer port;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return ServerRun.untilStopped(spec, options, this::config, "ferry-namesrv", server -> String.format(
                "Ferry name server ready: %s", server.nameServerAddress()));
    }

    /** Defaults, then the config file, then flags. */
    FerryServerConfig config() {
        return options.config(spec, FerryServerConfig.Role.NAME_SERVER, flags -> {
            if (port != null) {
                flags.namesrvPort(port);
            }
        });
    }
}

package dev.ferry.server.cli;

import dev.ferry.server.FerryServerConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code java -jar ferry-server.jar}: runs a name server and a broker until SIGTERM, then
 * stops them cleanly (flushes, persists offsets). Flags override the {@code --config} file.
 * {@code ferry-server namesrv} and {@code ferry-server broker} run either alone, for a cluster of processes;
 * {@code ferry-server admin ...} instead asks a running cluster ({@link AdminCommand}).
 */
@Command(name = "ferry-server", mixinStandardHelpOptions = true, version = "Ferry 0.1.0",
        description = "Runs a RocketMQ-compatible name server and broker in one process "
                + "('namesrv' or 'broker' runs either alone; 'admin' asks a running cluster).",
        subcommands = {NameServerCommand.class, BrokerCommand.class, AdminCommand.class})
public final class FerryServerCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options;

    @Option(names = "--namesrv-port", description = "Name server port (default 9876).")
    Integer namesrvPort;

    @Option(names = "--broker-port", description = "Broker port (default 10911).")
    Integer brokerPort;

    @Option(names = "--plugin-dir", description = "Directory of plugin jars (filters, strategies).")
    Path pluginDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line {@link #main} runs: a server command's bad option ends, as any failed start, with one line
     * and exit code 2 ({@link StartupFailure#usageLine}); admin commands keep picocli's message and usage help.
     */
    public static CommandLine commandLine() {
        CommandLine line = new CommandLine(new FerryServerCommand());
        CommandLine.IParameterExceptionHandler usage = line.getParameterExceptionHandler();
        line.setParameterExceptionHandler((e, args) -> {
            Object command = e.getCommandLine().getCommand();
            if (!(command instanceof FerryServerCommand || command instanceof NameServerCommand
                    || command instanceof BrokerCommand)) {
                return usage.handleParseException(e, args);
            }
            e.getCommandLine().getErr().println(StartupFailure.usageLine(e));
            e.getCommandLine().getErr().flush();
            return ServerRun.FAILED;
        });
        return line;
    }

    @Override
    public Integer call() throws Exception {
        return ServerRun.untilStopped(spec, options, this::config, "ferry", server -> String.format(
                "Ferry server ready: name server %s:%d, broker %s:%d, store %s", server.config().nameServer().host(),
                server.namesrvPort(), server.config().broker().host(), server.brokerPort(),
                server.config().storeDir().toAbsolutePath()));
    }

    /** Defaults, then the config file, then flags. */
    FerryServerConfig config() {
        return options.config(spec, FerryServerConfig.Role.NAME_SERVER_AND_BROKER, flags -> {
            if (namesrvPort != null) {
                flags.namesrvPort(namesrvPort);
            }
            if (brokerPort != null) {
                flags.brokerPort(brokerPort);
            }
            if (pluginDir != null) {
                flags.pluginDir(pluginDir);
            }
        });
    }
}

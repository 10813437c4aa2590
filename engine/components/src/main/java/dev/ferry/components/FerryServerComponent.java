package dev.ferry.components;

import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;

/**
 * A name server and a broker in the framework, configured by the Configuration Admin configuration
 * {@value #PID} with ferry-server's {@code --config} keys ({@code storeDir} required; {@code namesrvPort},
 * {@code brokerPort}, {@code host}, the limits, ...). It starts when the configuration appears, and is offered as
 * a {@link RunningServer} service once it listens; a changed configuration restarts it with the new settings, and
 * a deleted one stops it, which persists its store as ferry-server's own stop does. A bad configuration is refused
 * with the key, the value and the rule, and nothing starts.
 */
@Component(configurationPid = FerryServerComponent.PID, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = RunningServer.class, immediate = true)
public final class FerryServerComponent implements RunningServer {
    /** The configuration's persistent identity. */
    public static final String PID = "dev.ferry.server";
    private static final System.Logger LOG = System.getLogger(FerryServerComponent.class.getName());

    private FerryServer server;

    @Activate
    void activate(Map<String, Object> configuration) {
        FerryServerConfig config = config(configuration);
        server = new FerryServer(config, Clock.system(), new DaemonThreads("ferry-component")).start();
        LOG.log(Level.INFO, "Ferry server component ready: name server {0}, broker port {1}, store {2}",
                server.nameServerAddress(), String.valueOf(server.brokerPort()),
                config.storeDir().toAbsolutePath());
    }

    /** The server's settings from {@code configuration}. */
    static FerryServerConfig config(Map<String, ?> configuration) {
        Properties keys = ComponentProperties.userKeys(configuration);
        Path store = FerryServerProperties.removeStoreDir(keys).orElseThrow(() -> new IllegalArgumentException(
                "configuration " + PID + " needs storeDir (or Apache's storePathRootDir), the directory the broker "
                + "keeps its store in"));
        return FerryServerProperties.apply(FerryServerConfig.builder(store), keys).build();
    }

    @Deactivate
    void deactivate() {
        FerryServer running = server;
        server = null;
        if (running != null) {
            running.close();
            LOG.log(Level.INFO, "Ferry server component stopped cleanly; its store is in {0}",
                    running.config().storeDir().toAbsolutePath());
        }
    }

    @Override
    public String nameServerAddress() {
        return server.nameServerAddress();
    }

    @Override
    public int brokerPort() {
        return server.brokerPort();
    }
}

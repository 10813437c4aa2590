package dev.ferry.ra;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.server.embedded.EmbeddedEngine;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the adapter's JavaBean config properties, as the server set them, into an {@link AdapterConfig}: every
 * property is checked, and all the bad ones are named at once ({@code FERRY-RA-0002}). The one place the adapter's
 * properties are validated (the security ones through {@link AdapterSecurity}, problems collected by {@link
 * PropertyProblems}); stateless.
 */
final class AdapterConfigReader {
    private static final System.Logger LOG = System.getLogger(AdapterConfigReader.class.getName());

    /** Keys the adapter has properties of its own for: set there, not in the engine config file. */
    private static final Set<String> ADAPTER_KEYS = Set.of("host", "namesrvPort", "brokerPort",
            "storeDir", "pluginDir", "commitLogSegmentSize", "delayLevels", "flushMode", "brokerName", "clusterName",
            "autoCreateTopics", "namesrvAddr", "brokerId");

    private AdapterConfigReader() {
    }

    /**
     * The adapter's settings.
     *
     * @throws ResourceAdapterInternalException naming every bad property, by name, value and rule
     */
    static AdapterConfig read(FerryResourceAdapter properties) throws ResourceAdapterInternalException {
        PropertyProblems problems = new PropertyProblems();
        AdapterConfig.Mode parsedMode = problems.parse("mode", String.valueOf(properties.getMode()),
                AdapterConfig.Mode::parse, "must be embedded or remote").orElse(AdapterConfig.Mode.EMBEDDED);
        String nameServer = properties.getNameServer();
        Optional<String> names = Optional.ofNullable(nameServer).map(String::trim).filter(s -> !s.isEmpty());
        if (parsedMode == AdapterConfig.Mode.REMOTE) {
            problems.require(names.isPresent(), "nameServer", nameServer, "remote mode needs the name servers");
        }
        names.ifPresent(n -> problems.require(PropertyProblems.isAddressList(n), "nameServer", n,
                "must be host:port, several separated by ';'"));
        Integer namesrvPort = properties.getNamesrvPort();
        Integer brokerPort = properties.getBrokerPort();
        Integer commitLogSegmentSize = properties.getCommitLogSegmentSize();
        Boolean autoCreateTopics = properties.getAutoCreateTopics();
        Long brokerId = properties.getBrokerId();
        problems.require(namesrvPort != null, "namesrvPort", namesrvPort, "must be set");
        problems.require(brokerPort != null, "brokerPort", brokerPort, "must be set");
        problems.require(commitLogSegmentSize != null, "commitLogSegmentSize", commitLogSegmentSize, "must be set");
        problems.require(autoCreateTopics != null, "autoCreateTopics", autoCreateTopics, "must be true or false");
        WorkManagerThreadFactory.Placement placement = problems.parse("threadPlacement",
                String.valueOf(properties.getThreadPlacement()),
                v -> WorkManagerThreadFactory.Placement.valueOf(v.trim().toUpperCase(Locale.ROOT)),
                "must be spawned or work").orElse(null);
        String storeDir = properties.getStoreDir();
        Path store = path(problems, "storeDir", storeDir).orElse(null);
        problems.require(store != null, "storeDir", storeDir, "must be a directory path");
        Optional<Path> plugins = Optional.ofNullable(properties.getPluginDir()).filter(s -> !s.isBlank())
                .flatMap(p -> path(problems, "pluginDir", p));
        plugins.ifPresent(p -> problems.require(Files.isDirectory(p), "pluginDir", p, "must be an existing directory"));
        Properties settings = engineSettings(problems, properties.getEngineConfig());
        AdapterSecurity security = new AdapterSecurity(properties.getAuthenticationEnabled(),
                properties.getAuthorizationEnabled(), properties.getInitAuthenticationUser(), properties.getTlsMode(),
                properties.getTlsCertPath(), properties.getTlsKeyPath(), properties.getTlsTrustCertPath(),
                properties.getTlsNeedClientAuth(), properties.getUseTls(), properties.getAccessKey(),
                properties.getSecretKey());
        if (parsedMode == AdapterConfig.Mode.EMBEDDED) {
            security.addEngineSettings(settings, problems);
        }
        Optional<Credentials> credentials = security.credentials(problems);
        TlsConfig clientTls = security.clientTls(parsedMode, problems);
        EmbeddedEngine.Settings engine = EmbeddedEngine.settings(store != null ? store : Path.of("ferry-data"))
                .host(properties.getHost()).messageDelayLevel(properties.getMessageDelayLevel())
                .flushMode(properties.getFlushMode()).brokerName(properties.getBrokerName())
                .clusterName(properties.getClusterName()).engineConfig(settings);
        problems.require(brokerId != null, "brokerId", brokerId, "must be set");
        if (parsedMode == AdapterConfig.Mode.EMBEDDED) {
            names.ifPresent(engine::nameServer); // a broker of that cluster
            if (brokerId != null) {
                engine.brokerId(brokerId);
            }
        }
        if (namesrvPort != null) {
            engine.namesrvPort(namesrvPort);
        }
        if (brokerPort != null) {
            engine.brokerPort(brokerPort);
        }
        if (commitLogSegmentSize != null) {
            engine.commitLogSegmentSize(commitLogSegmentSize);
        }
        for (EmbeddedEngine.Problem problem : engine.problems()) {
            // the engine names the adapter's properties, and its config file engineConfig
            if ("engineConfig".equals(problem.property())) {
                problems.addAlso("engineConfig", properties.getEngineConfig(), problem.rule());
            } else {
                problems.add(problem.property(), problem.value(), problem.rule());
            }
        }
        if (!problems.isEmpty()) {
            String message = "FERRY-RA-0002 " + problems.describe("resource adapter configuration");
            LOG.log(Level.ERROR, message);
            throw new ResourceAdapterInternalException(message);
        }
        return AdapterConfig.builder(store).mode(parsedMode).nameServer(names).host(properties.getHost().trim())
                .namesrvPort(namesrvPort).brokerPort(brokerPort).pluginDir(plugins)
                .commitLogSegmentSize(commitLogSegmentSize).messageDelayLevel(properties.getMessageDelayLevel())
                .flushMode(properties.getFlushMode()).brokerName(properties.getBrokerName())
                .clusterName(properties.getClusterName()).autoCreateTopics(autoCreateTopics)
                .brokerId(brokerId == null ? 0 : brokerId).threadPlacement(placement).engineSettings(settings)
                .credentials(credentials).clientTls(clientTls).build();
    }

    private static Properties engineSettings(PropertyProblems problems, String engineConfig) {
        Properties settings = new Properties();
        Optional<Path> file = Optional.ofNullable(engineConfig).filter(s -> !s.isBlank())
                .flatMap(p -> path(problems, "engineConfig", p));
        if (file.isEmpty()) {
            return settings;
        }
        try (InputStream in = Files.newInputStream(file.get())) {
            settings.load(in);
        } catch (IOException | IllegalArgumentException e) {
            problems.add("engineConfig", file.get(), "cannot be read as a properties file: " + e.getMessage());
            return settings;
        }
        List<String> wrong = new ArrayList<>();
        for (String key : new TreeSet<>(settings.stringPropertyNames())) {
            String name = EmbeddedEngine.configKeyName(key); // Apache's names of these count too
            if (ADAPTER_KEYS.contains(name)) {
                wrong.add("sets " + key + ", which is the adapter property " + name + ": set it there");
            }
        }
        if (!wrong.isEmpty()) {
            problems.add("engineConfig", file.get(), String.join("; ", wrong));
        }
        return settings;
    }

    private static Optional<Path> path(PropertyProblems problems, String property, String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(value.trim()));
        } catch (InvalidPathException e) {
            problems.add(property, value, "is not a valid path: " + e.getMessage());
            return Optional.empty();
        }
    }
}

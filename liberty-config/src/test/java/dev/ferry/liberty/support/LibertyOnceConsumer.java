package dev.ferry.liberty.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.bench.faults.ConsumerGroup;
import dev.ferry.bench.faults.ExternalConsumer;
import dev.ferry.bench.faults.Receipt;
import dev.ferry.liberty.apps.FaultOnceMdb;
import dev.ferry.liberty.apps.FaultRows;
import dev.ferry.liberty.apps.FaultRowsResource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * The resource adapter in Liberty (remote mode) as a consumer of the fault harness: {@link FaultOnceMdb}, exactly once
 * through the jdbc offset store, in the test server {@code ferry-remote}, which it starts with Liberty's own
 * {@code server} command, kills with SIGKILL and starts again as the harness asks. Each start of a run gets a database
 * of its own, so that neither rows nor offsets of an earlier run count.
 */
public final class LibertyOnceConsumer implements ExternalConsumer {
    private static final String SERVER = "ferry-remote";
    private static final String APP = "fault-once";
    private static final Path SERVER_DIR = Path.of("target/liberty/wlp/usr/servers", SERVER);
    private static final Path OVERRIDES = SERVER_DIR.resolve("configDropins/overrides");
    private static final Duration START = Duration.ofMinutes(3);

    private final Http http = new Http(19280);
    private final ConsumerGroup group = ConsumerGroup.exactlyOnceOfOrdered(FaultOnceMdb.GROUP);
    private boolean running;

    public LibertyOnceConsumer() {
        if (!group.topics().contains(FaultOnceMdb.TOPIC)) {
            throw new IllegalStateException(FaultOnceMdb.TOPIC + " is not the harness's ordered topic "
                    + group.topics());
        }
    }

    @Override
    public String name() {
        return "liberty";
    }

    @Override
    public ConsumerGroup group() {
        return group;
    }

    @Override
    public void start(String nameServers) throws IOException {
        Files.createDirectories(SERVER_DIR.resolve("apps"));
        TestApps.probeApp(APP, FaultOnceMdb.class, FaultRows.class, FaultRowsResource.class).as(ZipExporter.class)
                .exportTo(SERVER_DIR.resolve("apps").resolve(APP + ".war").toFile(), true);
        Files.createDirectories(OVERRIDES);
        // the variable where the remote-mode tests name their cluster; the rest in a file of its own
        Files.writeString(OVERRIDES.resolve("cluster.xml"), "<server>\n  <variable name=\"ferry.nameServer\" value=\""
                + nameServers + "\"/>\n</server>\n", StandardCharsets.UTF_8);
        String database = "faultdb-" + UUID.randomUUID().toString().substring(0, 8);
        Files.writeString(OVERRIDES.resolve(APP + ".xml"), """
                <server>
                  <dataSource id="faultdb" jndiName="%s" type="javax.sql.XADataSource">
                    <jdbcDriver libraryRef="derby"/>
                    <properties.derby.embedded databaseName="${server.output.dir}/%s" createDatabase="create"/>
                  </dataSource>
                  <application id="%s" name="%s" type="war" location="%s.war">
                    <classloader classProviderRef="ferry-ra"/>
                  </application>
                  <activationSpec id="%s/FaultOnceMdb">
                    <properties.ferry-ra/>
                  </activationSpec>
                </server>
                """.formatted("jdbc/faultdb", database, APP, APP, APP, APP), StandardCharsets.UTF_8);
        restart();
    }

    @Override
    public void kill() {
        ServerJvm.liberty(SERVER).kill();
        running = false;
    }

    /**
     * Starts the server and returns once the application answers. The application decides, not {@code server start}'s
     * status: the launcher gives up after 30 s without the kernel's lock, and a server slow to start under the
     * faults' load still comes up and serves.
     */
    @Override
    public void restart() {
        ServerCommand.Outcome start = ServerCommand.attempt("start", SERVER);
        running = true;
        try {
            await().atMost(START).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> http.getAnswer("/" + APP + "/fault/rows").status() == 200);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the application did not answer within " + START.toMinutes()
                    + " minutes; server start ended with " + start.status() + ": " + start.output(), e);
        }
    }

    @Override
    public List<Receipt> receipts() {
        List<Receipt> receipts = new ArrayList<>();
        for (JsonNode row : http.getJson("/" + APP + "/fault/rows")) {
            receipts.add(new Receipt(Long.parseLong(row.get("time").asText()), row.get("key").asText(),
                    row.get("topic").asText(), row.get("broker").asText(), Integer.parseInt(row.get("queue").asText()),
                    Long.parseLong(row.get("offset").asText())));
        }
        return receipts;
    }

    /** Stops the server and takes the application out of its configuration. */
    @Override
    public void close() {
        try {
            if (running) {
                ServerCommand.run("stop", SERVER);
                running = false;
            }
        } finally {
            try {
                Files.deleteIfExists(OVERRIDES.resolve(APP + ".xml"));
                Files.deleteIfExists(SERVER_DIR.resolve("apps").resolve(APP + ".war"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}

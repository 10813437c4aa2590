package dev.ferry.ra;

import dev.ferry.server.embedded.EmbeddedEngine;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * Starts the embedded engine of an adapter in embedded mode, its store directory first; a failure names the store and
 * the ports ({@code FERRY-RA-0003}). The engine is stopped by the {@link AdapterRuntime} that owns it. Stateless.
 */
final class EmbeddedEngineLauncher {
    private static final System.Logger LOG = System.getLogger(EmbeddedEngineLauncher.class.getName());

    private EmbeddedEngineLauncher() {
    }

    /** The started engine, whose threads come from {@code threads}. */
    static EmbeddedEngine start(AdapterConfig config, ThreadFactory threads) throws ResourceAdapterInternalException {
        try {
            Files.createDirectories(config.storeDir());
            return config.engine().threadFactory(threads).start();
        } catch (IOException | RuntimeException e) {
            String message = "FERRY-RA-0003 cannot start the embedded engine (store " + config.storeDir().toAbsolutePath()
                    + ", name server port " + config.namesrvPort() + ", broker port " + config.brokerPort() + "): "
                    + causes(e);
            LOG.log(Level.ERROR, message, e);
            throw new ResourceAdapterInternalException(message, e);
        }
    }

    /** The messages of {@code e} and its first causes, outermost first: what a start failure's message ends with. */
    static String causes(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null && messages.size() < 5; t = t.getCause()) {
            messages.add(t.getMessage() != null ? t.getMessage() : t.getClass().getName());
        }
        return String.join(" <- ", messages);
    }
}
